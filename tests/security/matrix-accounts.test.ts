import { securityMatrix } from './matrix.ts';

securityMatrix('accounts');
