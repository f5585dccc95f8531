/** Product version and environment labels (product-spec §1 and §9). */
export const APP_VERSION = '2.1.0';
export const APP_ENVIRONMENT = 'production';
