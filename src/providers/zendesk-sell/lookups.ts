import type { AdapterContext } from '../types';
import { API, idText, listPage, type SellObject } from './api';

/**
 * Which of these Sell contact ids are organizations (companies), one `ids=` list request per 100: notes,
 * tasks, calls and deals name a contact without saying whether it is a person or an organization.
 */
export async function organizationsAmong(ctx: AdapterContext, objects: SellObject[], field: 'resource_id' | 'contact_id'): Promise<Set<string>> {
  const ids = [...new Set(objects.filter((o) => field === 'contact_id' || o.resource_type === 'contact').map((o) => idText(o[field])).filter((x): x is string => x !== null))];
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 100) {
    const part = ids.slice(i, i + 100);
    const res = await listPage(ctx, `${API}/contacts`, { ids: part.join(','), per_page: 100 });
    for (const c of res.items) if (c.is_organization === true) out.add(String(c.id));
  }
  return out;
}
