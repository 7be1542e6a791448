import type { AccessContext } from '../core/access';
import type { SecretBox } from '../core/secrets';
import type { EventFilter, EventsRepo } from '../store/events.repo';
import type { Page, PageRequest } from '../store/pagination';
import { presentEvent, type PresentedEvent } from './present';

/** The events feed: what webhooks deliver, readable in order by those who cannot receive them. */
export class EventsService {
  constructor(
    private readonly repo: EventsRepo,
    private readonly box: SecretBox,
    readonly retentionDays: number,
  ) {}

  async list(ctx: AccessContext, filter: EventFilter, page: PageRequest): Promise<Page<PresentedEvent>> {
    const rows = await this.repo.list(ctx.projectId, filter, page);
    return { ...rows, items: rows.items.map((r) => presentEvent(r, this.box)) };
  }

  purgeExpired(now = new Date()): Promise<number> {
    return this.repo.purgeBefore(new Date(now.getTime() - this.retentionDays * 86_400_000));
  }
}
