import { securityMatrix } from './matrix.ts';

securityMatrix('rpc');
