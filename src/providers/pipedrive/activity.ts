/**
 * Pipedrive activities are both crm.task and crm.engagement: calls, meetings (and lunches) and emails are
 * engagements; tasks, deadlines and custom activity types are tasks. Activity times are a UTC date
 * (`due_date`), an optional UTC time of day (`due_time`, HH:MM) and a duration (HH:MM).
 */
import { AppError } from '../../core/errors';
import type { PdActivity } from './types';
import { unsupported } from './util';

/** Pipedrive activity type → unified engagement type (anything else is a task). */
export const ENGAGEMENT_TYPE_OF: Record<string, 'CALL' | 'MEETING' | 'EMAIL'> = { call: 'CALL', meeting: 'MEETING', lunch: 'MEETING', email: 'EMAIL' };
/** Unified engagement type → the Pipedrive activity type written. */
export const ACTIVITY_TYPE_OF: Record<string, string> = { CALL: 'call', MEETING: 'meeting', EMAIL: 'email' };

export function activityObjectType(type: string | null | undefined): 'crm.task' | 'crm.engagement' {
  return type && ENGAGEMENT_TYPE_OF[type] ? 'crm.engagement' : 'crm.task';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The start of an activity as ISO 8601 (midnight UTC when it has a date but no time); null without a date. */
export function activityStart(a: Pick<PdActivity, 'due_date' | 'due_time'>): string | null {
  if (!a.due_date || !DATE.test(a.due_date)) return null;
  const t = a.due_time && TIME.exec(a.due_time);
  const time = t ? `${t[1]}:${t[2]}:${t[3] ?? '00'}` : '00:00:00';
  const d = new Date(`${a.due_date}T${time}Z`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Minutes of an HH:MM duration; null when absent or unreadable. */
export function durationMinutes(duration: string | null | undefined): number | null {
  const t = duration ? TIME.exec(duration) : null;
  return t ? Number(t[1]) * 60 + Number(t[2]) : null;
}

/** The end of an activity (start plus duration); null without a start or a duration. */
export function activityEnd(a: Pick<PdActivity, 'due_date' | 'due_time' | 'duration'>): string | null {
  const start = activityStart(a);
  const minutes = durationMinutes(a.duration);
  if (!start || minutes === null || !a.due_time) return null;
  return new Date(Date.parse(start) + minutes * 60_000).toISOString();
}

/** An ISO 8601 date-time as Pipedrive's UTC `due_date` and `due_time` (minute precision). */
export function splitDateTime(iso: string, field: string): { due_date: string; due_time: string } {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new AppError('validation_failed', `${field}: not a date-time`, { field });
  const utc = new Date(ms).toISOString();
  return { due_date: utc.slice(0, 10), due_time: utc.slice(11, 16) };
}

/** The duration from `start` to `end` as HH:MM; Pipedrive keeps durations under 24 hours. */
export function durationBetween(start: string, end: string, field: string): string {
  const minutes = Math.round((Date.parse(end) - Math.floor(Date.parse(start) / 60_000) * 60_000) / 60_000);
  if (Number.isNaN(minutes) || minutes < 0) {
    throw new AppError('validation_failed', `${field}: must not be before start_at`, { field, issues: [{ path: field, message: 'must not be before start_at' }] });
  }
  if (minutes >= 24 * 60) throw unsupported(field, 'a Pipedrive activity lasts less than 24 hours');
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Persons as an activity's `participants`, the first one primary. API v2 treats `person_id` as read-only, "set
 * indirectly by adding a primary participant" (https://pipedrive.readme.io/docs/pipedrive-api-v2-migration-guide);
 * writes use `primary`, reads show it the same way.
 */
export function primaryParticipants(persons: number[]): { person_id: number; primary: boolean }[] {
  return persons.map((person_id, i) => ({ person_id, primary: i === 0 }));
}
