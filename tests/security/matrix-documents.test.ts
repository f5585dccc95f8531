import { securityMatrix } from './matrix.ts';

securityMatrix('documents');
