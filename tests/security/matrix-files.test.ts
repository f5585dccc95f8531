import { securityMatrix } from './matrix.ts';

securityMatrix('files');
