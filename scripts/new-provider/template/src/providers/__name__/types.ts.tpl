/** __Display__'s objects as its API answers them (TODO(new-provider): the reference's object schemas). */
export interface __Pascal__User {
  id: number;
  name?: string | null;
  email?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface __Pascal__Ticket {
  id: number;
  subject?: string | null;
  description?: string | null;
  status?: string | null;
  assignee_id?: number | null;
  created_at?: string;
  updated_at?: string;
}

export interface __Pascal__Comment {
  id: number;
  ticket_id?: number;
  body?: string | null;
  html_body?: string | null;
  private?: boolean;
  author_id?: number | null;
  created_at?: string;
  updated_at?: string;
}

/** One page of a listing: `{"data": [...], "has_more": true}`. */
export interface __Pascal__Page<T> {
  data?: T[];
  has_more?: boolean;
}
