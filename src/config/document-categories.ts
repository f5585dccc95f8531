/**
 * The fixed list of 14 document categories (product-spec §3). The database constrains
 * `documents.category` to the same list, so it is declared once, beside the row types.
 */
export { DOCUMENT_CATEGORIES, type DocumentCategory } from '../lib/database.types.ts';
