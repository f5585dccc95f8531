import { FolderLock } from 'lucide-react';
import { useState } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, type TabItem } from '../../components/ui/tabs.tsx';
import { isAdminRole, isMasterAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { CategoryList } from './components/category-list.tsx';
import { GroupList } from './components/group-list.tsx';

type Tab = 'categories' | 'groups';
const TABS: readonly TabItem<Tab>[] = [
  { value: 'categories', label: 'Categories' },
  { value: 'groups', label: 'Groups' },
];

/**
 * `/categories` (admins): the organisation's own document categories (add, rename, reorder,
 * retire), who may see and change the documents of each, and the groups those rules name.
 * Master admins grant access; admins see it. The database decides every change again.
 */
export function CategoriesPage() {
  const { profile, profileLoading } = useSession();
  const [tab, setTab] = useState<Tab>('categories');
  if (profileLoading) return <Spinner />;
  if (!isAdminRole(profile?.role)) {
    return (
      <p className="text-sm text-gray-600">
        Access Restricted: You need admin privileges to manage categories.
      </p>
    );
  }
  return (
    <div className="space-y-6">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-semibold text-gray-900">
          <FolderLock className="h-6 w-6 text-gray-500" aria-hidden="true" /> Categories
        </h1>
        <p className="text-sm text-gray-600">
          Your organization’s document categories, who may see them, and the groups of members you
          give access to.
        </p>
      </div>
      <Tabs label="Categories and groups" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'categories' ? (
          <CategoryList canChangeAccess={isMasterAdminRole(profile?.role)} />
        ) : (
          <GroupList />
        )}
      </Tabs>
    </div>
  );
}
