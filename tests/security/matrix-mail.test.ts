import { securityMatrix } from './matrix.ts';

securityMatrix('mail');
