import type { AccessContext } from '../core/access';
import { inSlices } from '../core/slices';
import type { SecretBox } from '../core/secrets';
import type { EventFilter, EventsRepo } from '../store/events.repo';
import type { Page, PageRequest } from '../store/pagination';
import { presentEvent, type PresentedEvent } from './present';

/** Events deleted together: each takes its deliveries and attempts with it. */
const EVENT_SLICE = 250;

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

  /** In slices (smaller: each event takes its deliveries and attempts with it), requests answered between them. */
  purgeExpired(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.retentionDays * 86_400_000);
    return inSlices(() => this.repo.purgeBefore(cutoff, EVENT_SLICE), EVENT_SLICE);
  }
}
