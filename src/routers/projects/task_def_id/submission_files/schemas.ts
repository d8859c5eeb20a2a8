export { downloadInput } from '../submission/schemas.ts';
