/** ClickUp API v2 objects as the adapter reads them. Times are UNIX milliseconds in strings. */
export interface CuUser {
  id: number;
  username?: string | null;
  email?: string | null;
}

export interface CuStatus {
  status?: string;
  type?: string;
  orderindex?: number;
}

export interface CuField {
  id: string;
  name?: string;
  type?: string;
  type_config?: { options?: Array<{ id: string; name?: string; orderindex?: number }> } | null;
  value?: unknown;
}

export interface CuAttachment {
  id: string;
  title?: string | null;
  url?: string | null;
  date?: string | number | null;
  user?: CuUser | null;
}

export interface CuTask {
  id: string;
  name?: string | null;
  text_content?: string | null;
  description?: string | null;
  status?: CuStatus | null;
  date_created?: string | null;
  date_updated?: string | null;
  date_closed?: string | null;
  date_done?: string | null;
  assignees?: CuUser[];
  tags?: Array<{ name?: string }>;
  parent?: string | null;
  priority?: { id?: string; priority?: string } | null;
  due_date?: string | null;
  custom_fields?: CuField[];
  list?: { id: string } | null;
  folder?: { id: string } | null;
  space?: { id: string } | null;
  attachments?: CuAttachment[];
  url?: string;
}

export interface CuComment {
  id: string;
  comment_text?: string | null;
  user?: CuUser | null;
  date?: string | null;
}

export interface CuList {
  id: string;
  name?: string;
  content?: string | null;
  statuses?: CuStatus[];
  folder?: { id: string; hidden?: boolean } | null;
  space?: { id: string } | null;
}

export interface CuFolder {
  id: string;
  name?: string;
  hidden?: boolean;
  lists?: CuList[];
}

export interface CuSpace {
  id: string;
  name?: string;
}

export interface CuWorkspace {
  id: string;
  name?: string;
  members?: Array<{ user: CuUser }>;
}

export interface CuGroup {
  id: string;
  name?: string;
  handle?: string | null;
  members?: CuUser[];
}
