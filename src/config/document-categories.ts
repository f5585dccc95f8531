import { Constants, type Enums } from '../lib/database.types.ts';

/**
 * The fixed list of 14 document categories (product-spec §3), in its order. It is written once,
 * in the check constraint of `documents.category`, and generated from there (npm run gen:types).
 */
export const DOCUMENT_CATEGORIES = Constants.public.Enums.documents_category;
export type DocumentCategory = Enums<'documents_category'>;
