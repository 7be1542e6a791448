import { unsupportedBy } from '../kit';
export { asRecord, nonEmpty, toDate } from '../kit';

export const PROVIDER = 'asana';
export const unsupported = unsupportedBy(PROVIDER);

export const seg = (gid: string) => encodeURIComponent(gid);
