/**
 * Salesforce notes: enhanced notes (ContentNote, the notes Lightning Experience makes: ContentDocuments of type
 * SNOTE, with ContentVersion bodies and ContentDocumentLink parents) beside classic Notes. Read both; written as
 * ContentNotes where the org has Notes enabled (ContentNote exists), as classic Notes where it has not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSalesforceAdapter } from '../../../src/providers/salesforce';
import type { UnifiedRecord } from '../../../src/providers/types';
import { expectNoSalesforceSpecViolations } from '../../conformance/drivers/salesforce';
import { startSalesforceSimulator, type Rec } from '../../simulators/salesforce';
import { simulatorContext } from './support';

const TOKEN = 'sf-notes-token';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

async function org(o: { enhancedNotes: boolean }) {
  const sim = await startSalesforceSimulator({ accessTokens: [TOKEN], maxBatchSize: 2, enhancedNotes: o.enhancedNotes });
  const adapter = createSalesforceAdapter();
  const ctx = simulatorContext(sim, `sf-notes-${o.enhancedNotes}`, TOKEN);
  const account = sim.create('Account', { Name: 'Initech' });
  const contact = sim.create('Contact', { LastName: 'Lumbergh', AccountId: account.Id });
  const notes = async (since?: Date): Promise<UnifiedRecord[]> => {
    const out: UnifiedRecord[] = [];
    for await (const b of adapter.syncers.find((s) => s.key === 'crm.note')!.run(ctx, since ? { since } : {})) out.push(...b.records);
    return out;
  };
  return { sim, adapter, ctx, account, contact, notes };
}

describe('salesforce notes in an org with Notes enabled', () => {
  let o: Awaited<ReturnType<typeof org>>;
  let lightning: Rec;
  beforeAll(async () => {
    o = await org({ enhancedNotes: true });
    // a note made in Lightning (a ContentVersion of a .snote file, published to the contact) and a classic one
    const version = o.sim.create('ContentVersion', { Title: 'Call recap', PathOnClient: 'Call recap.snote', VersionData: b64('<p>Call recap</p><p>Wants a demo</p>'), FirstPublishLocationId: o.contact.Id });
    lightning = o.sim.get('ContentDocument', String(version.ContentDocumentId))!;
    for (let i = 0; i < 2; i++) o.sim.create('ContentVersion', { PathOnClient: `Extra ${i}.snote`, VersionData: b64(`<p>Extra ${i}</p>`), FirstPublishLocationId: o.account.Id });
    o.sim.create('ContentVersion', { PathOnClient: 'contract.pdf', VersionData: b64('%PDF'), FirstPublishLocationId: o.account.Id }); // a file, not a note
    o.sim.create('Note', { Title: 'Old note', Body: 'From Classic', ParentId: o.account.Id });
  });
  afterAll(async () => {
    if (o?.sim) expectNoSalesforceSpecViolations(o.sim);
    await o?.sim.close();
  });

  it('syncs enhanced notes (ContentNote) with their parent and body, beside classic Notes', async () => {
    const all = await o.notes();
    expect(all).toHaveLength(4);
    const recap = all.find((r) => r.remoteId === lightning.Id)!;
    expect(recap.data).toEqual({
      content: '<p>Call recap</p><p>Wants a demo</p>',
      user_id: o.ctx.ids('crm.user', o.sim.users[0]!.Id),
      contact_id: o.ctx.ids('crm.contact', o.contact.Id),
      company_id: null,
      deal_id: null,
    });
    expect(all.find((r) => r.data.content === 'From Classic')!.data.company_id).toBe(o.ctx.ids('crm.company', o.account.Id));
    expect(all.filter((r) => String(r.data.content).startsWith('<p>Extra')).map((r) => r.data.company_id)).toEqual([o.ctx.ids('crm.company', o.account.Id), o.ctx.ids('crm.company', o.account.Id)]);
  });

  it('writes a note as a ContentNote (a .snote ContentVersion published to the record), edits it as its next version', async () => {
    const made = await o.adapter.crm!.create(o.ctx, 'crm.note', { content: 'Met at the fair\nSends the RFP & pricing', contact_id: o.contact.Id });
    expect(made.record.remoteId.startsWith('069')).toBe(true);
    expect(made.record.data).toMatchObject({ content: '<p>Met at the fair</p><p>Sends the RFP &amp; pricing</p>', contact_id: o.ctx.ids('crm.contact', o.contact.Id) });
    const doc = o.sim.get('ContentDocument', made.record.remoteId)!;
    expect(doc).toMatchObject({ FileType: 'SNOTE', Title: 'Met at the fair' });
    const links = o.sim.all('ContentDocumentLink').filter((l) => l.ContentDocumentId === doc.Id).map((l) => l.LinkedEntityId);
    expect(links).toContain(o.contact.Id);
    expect(o.sim.all('Note').filter((n) => n.Body === 'Met at the fair')).toEqual([]);

    const edited = await o.adapter.crm!.update(o.ctx, 'crm.note', made.record.remoteId, { content: '<p>Fair follow-up</p>' });
    expect(edited.record.data).toMatchObject({ content: '<p>Fair follow-up</p>', contact_id: o.ctx.ids('crm.contact', o.contact.Id) });
    expect(o.sim.all('ContentVersion').filter((v) => v.ContentDocumentId === doc.Id).map((v) => [v.VersionNumber, v.IsLatest])).toEqual([
      ['1', false],
      ['2', true],
    ]);
    // what an enhanced note cannot take, refused naming the field
    const owner = (await o.adapter.crm!.create(o.ctx, 'crm.note', { content: 'x', company_id: o.account.Id, user_id: o.sim.users[1]!.Id }).catch((e: unknown) => e)) as { details?: { field?: string } };
    expect(owner.details?.field).toBe('user_id');
    const moved = (await o.adapter.crm!.update(o.ctx, 'crm.note', made.record.remoteId, { company_id: o.account.Id }).catch((e: unknown) => e)) as { details?: { field?: string } };
    expect(moved.details?.field).toBe('company_id');
  });

  it('reads an edited or deleted enhanced note in an incremental run (queryAll)', async () => {
    o.sim.clock.advance(5_000);
    const since = new Date(o.sim.clock.now());
    o.sim.clock.advance(2_000);
    o.sim.create('ContentVersion', { ContentDocumentId: lightning.Id, PathOnClient: 'Call recap.snote', VersionData: b64('<p>Demo booked</p>') });
    const [extra] = o.sim.all('ContentDocument').filter((d) => d.Title === 'Extra 0');
    o.sim.remove('ContentDocument', extra!.Id);
    const changed = await o.notes(since);
    expect(changed.map((r) => [r.remoteId, r.deleted === true, r.data.content])).toEqual([
      [lightning.Id, false, '<p>Demo booked</p>'],
      [extra!.Id, true, 'Extra 0'],
    ]);
  });
});

describe('salesforce notes in an org without enhanced notes', () => {
  let o: Awaited<ReturnType<typeof org>>;
  beforeAll(async () => {
    o = await org({ enhancedNotes: false });
  });
  afterAll(async () => {
    if (o?.sim) expectNoSalesforceSpecViolations(o.sim);
    await o?.sim.close();
  });

  it('writes classic Notes (ContentNote does not exist there)', async () => {
    const made = await o.adapter.crm!.create(o.ctx, 'crm.note', { content: 'Classic only', company_id: o.account.Id });
    expect(made.record.remoteId.startsWith('002')).toBe(true);
    expect(made.record.data).toMatchObject({ content: 'Classic only', company_id: o.ctx.ids('crm.company', o.account.Id) });
    expect(o.sim.all('ContentDocument')).toEqual([]);
    expect((await o.notes()).map((r) => r.remoteId)).toEqual([made.record.remoteId]);
    // the org's answer is kept: a second note asks no describe of ContentNote again
    await o.adapter.crm!.create(o.ctx, 'crm.note', { content: 'Second', company_id: o.account.Id });
    expect(o.sim.requests.filter((r) => r.path.endsWith('/sobjects/ContentNote/describe'))).toHaveLength(1);
  });
});
