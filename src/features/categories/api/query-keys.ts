/**
 * The Categories page's queries, keyed by the table each reads first. Every write here also
 * invalidates `['document_categories']`: what a member may view and edit
 * (`my_document_categories()`) follows the groups and the access rules too.
 */
export const groupKeys = {
  all: ['member_groups'] as const,
  list: () => ['member_groups', 'list'] as const,
};

export const accessKeys = {
  all: ['category_access'] as const,
  list: () => ['category_access', 'list'] as const,
};

export const memberKeys = {
  list: () => ['user_profiles', 'categories', 'members'] as const,
};
