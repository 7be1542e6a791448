import { AppError, notFound, unknownProvider } from './errors';
import { isUuid, type AccessContext } from './access';
import { newMagicLinkToken, sha256Hex } from './secrets';
import { allowedRedirect } from './connect-settings';
import { linkStatus, type ConnectService } from './connect';
import type { ConnectSettingsService } from './connect-settings';
import type { LinkedUserService } from './linked-users';
import type { ProviderRegistry } from '../providers/registry';
import type { LinkedUserRow } from '../store/control-plane.repo';
import type { ConnectRepo, InviteLinkRow, InviteLinkStatus } from '../store/connect.repo';
import type { PageRequest } from '../store/pagination';

export interface MagicLinkInput {
  linked_user_origin_id: string;
  email?: string;
  alias?: string;
  /** The caller's own project (another project's id is answered as unknown). */
  id_project?: string;
  /** Offer only these providers (within those the project enables). */
  providers?: string[];
  /** Offer only providers of these verticals. */
  verticals?: string[];
  /** Where the success page sends the user back; must be allowed by the project's connect settings. */
  redirect_url?: string;
  /** Lifetime of this link; default OMNIPORT_MAGIC_LINK_TTL_HOURS (7 days). */
  expires_in_hours?: number;
}

export interface MagicLinkView {
  link: InviteLinkRow;
  linkedUser: LinkedUserRow;
  status: InviteLinkStatus;
}

/** Magic links: created and managed with an API key, opened by the linked user on the hosted connect page. */
export class MagicLinkService {
  constructor(
    private readonly repo: ConnectRepo,
    private readonly linkedUsers: LinkedUserService,
    private readonly providers: ProviderRegistry,
    private readonly settings: ConnectSettingsService,
    private readonly connect: ConnectService,
    private readonly defaultTtlHours: number,
  ) {}

  /**
   * Creates or reuses the linked user and issues a link; `publicBase` is the address the linked user's
   * browser reaches Omniport at. The URL holds the link's secret: shown here only, stored as a hash.
   */
  async create(ctx: AccessContext, input: MagicLinkInput, publicBase: string): Promise<MagicLinkView & { url: string }> {
    if (input.id_project !== undefined && input.id_project !== ctx.projectId) throw notFound('project', 'id_project');
    if (input.providers) {
      const known = this.providers.names();
      const unknown = input.providers.find((p) => !known.includes(p));
      if (unknown !== undefined) throw unknownProvider(unknown, 'providers', known);
    }
    // Kept in its normalised form, the one that was compared with the allowed URLs.
    let redirectUrl: string | null = null;
    if (input.redirect_url !== undefined) {
      const { allowedRedirectUrls } = await this.settings.get(ctx.projectId);
      redirectUrl = allowedRedirect(allowedRedirectUrls, input.redirect_url);
      if (redirectUrl === null) {
        throw new AppError(
          'unprocessable',
          'redirect_url is not one of the project’s allowed redirect URLs (PATCH /connect-settings allowed_redirect_urls)',
          { field: 'redirect_url', reason: 'redirect_url_not_allowed' },
        );
      }
    }
    const filter = { providers: input.providers ? [...new Set(input.providers)] : null, verticals: input.verticals ? [...new Set(input.verticals)] : null };
    if ((await this.connect.catalog(ctx.projectId, filter)).length === 0) {
      throw new AppError(
        'unprocessable',
        'no provider could be connected with this link: enable providers for the project, set an OAuth app for OAuth-only providers, or widen providers/verticals',
        { field: input.providers ? 'providers' : input.verticals ? 'verticals' : 'id_project', reason: 'no_connectable_provider' },
      );
    }

    let linkedUser = await this.linkedUsers.ensure(ctx, input);
    if ((!linkedUser.alias && input.alias) || (!linkedUser.email && input.email)) {
      linkedUser = (await this.repo.fillLinkedUser(linkedUser.id, { alias: input.alias, email: input.email })) ?? linkedUser;
    }
    const token = newMagicLinkToken();
    const hours = input.expires_in_hours ?? this.defaultTtlHours;
    const link = await this.repo.insertInviteLink({
      projectId: ctx.projectId,
      linkedUserId: linkedUser.id,
      tokenHash: sha256Hex(token),
      email: input.email ?? linkedUser.email,
      providers: filter.providers,
      verticals: filter.verticals,
      redirectUrl,
      expiresAt: new Date(Date.now() + hours * 3_600_000),
    });
    return { link, linkedUser, status: 'active', url: `${publicBase.replace(/\/+$/, '')}/connect/${token}` };
  }

  async list(ctx: AccessContext, page: PageRequest, filter: { linkedUserId?: string; status?: InviteLinkStatus }) {
    const now = new Date();
    const result = await this.repo.listInviteLinks(ctx.projectId, page, filter, now);
    return { ...result, items: result.items.map((r) => ({ ...r, status: linkStatus(r.link, now) })) };
  }

  async get(ctx: AccessContext, id: string): Promise<MagicLinkView> {
    const found = isUuid(id) ? await this.repo.findInviteLink(ctx.projectId, id) : undefined;
    if (!found) throw notFound('magic link');
    return { ...found, status: linkStatus(found.link) };
  }

  /** Revokes the link (idempotent): its page then says so, and OAuth flows started from it fail. */
  async revoke(ctx: AccessContext, id: string): Promise<MagicLinkView> {
    if (!isUuid(id)) throw notFound('magic link');
    await this.repo.revokeInviteLink(ctx.projectId, id, new Date());
    return this.get(ctx, id);
  }
}
