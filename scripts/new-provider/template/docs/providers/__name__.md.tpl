# __Display__

Code: `src/providers/__name__/` (manifest, HTTP profile, mappers, sync streams, writes). Tests:
`test/simulators/__name__/` (the simulator) and the ticketing conformance suite
(`test/conformance/__name__.conformance.test.ts`, on PGlite and PostgreSQL).

Sources: TODO(new-provider) — the API reference's address and the sections each behaviour below comes from
(Authentication, Rate limits, Pagination, Errors, Tickets, Comments, Users), and whether a machine-readable
description exists (then the recorded-request check uses it; otherwise declare a contract in `test/contracts`).

## Connecting

| | |
|---|---|
| provider name | `__name__` (vertical `ticketing`) |
| `base_url` | TODO(new-provider) |
| credentials | `{"api_token": "<token>"}`, sent as `Authorization: Bearer <token>` |

## Mappings

| unified | __Display__ |
|---|---|
| ticket `name` | `subject` |
| ticket `description` | `description` |
| ticket `status` | `open` ↔ `OPEN`, `pending` ↔ `ON_HOLD`, `closed` ↔ `CLOSED` |
| ticket `assigned_to` | `assignee_id` (one user) |
| comment `html_body` / `body` | `html_body` (text from it by the kit's HTML reader) |
| user `name`, `email_address` | `name`, `email` |

## Sync

Users are read whole every run; tickets by `updated_since` for incremental runs, every comment of each ticket
listed; a ticket deleted in __Display__ is seen by a full run or the deletion check.

## Limitations

See `limitations` in `src/providers/__name__/manifest.ts` (also answered by `GET /providers`).
