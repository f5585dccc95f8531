import { securityMatrix } from './matrix.ts';

securityMatrix('category-access');
