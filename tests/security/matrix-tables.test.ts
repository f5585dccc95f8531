import { securityMatrix } from './matrix.ts';

securityMatrix('tables');
