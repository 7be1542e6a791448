import { unsupportedBy } from '../kit';
export { asRecord, fromEpochMs, nonEmpty } from '../kit';

export const PROVIDER = 'clickup';
export const unsupported = unsupportedBy(PROVIDER);

export const seg = (id: string) => encodeURIComponent(id);
