import { describe, expect, it } from 'vitest';
import { SoqlError, fieldsOf, matches, parseSoql, sortRecords } from './soql';

describe('the simulator’s SOQL subset', () => {
  it('reads the queries the adapter sends: compound cursor, NOT IN, ordering', () => {
    const q = parseSoql(
      "SELECT Id, Name FROM Task WHERE (TaskSubtype NOT IN ('Call', 'Email')) AND SystemModstamp >= 2026-11-25T09:00:00Z AND (SystemModstamp > 2026-11-25T09:00:01Z OR (SystemModstamp = 2026-11-25T09:00:01Z AND Id > '00T000000000002AAA')) ORDER BY SystemModstamp ASC, Id ASC",
    );
    expect(q.from).toBe('Task');
    expect(fieldsOf(q).sort()).toEqual(['Id', 'Name', 'SystemModstamp', 'TaskSubtype']);
    const at = (s: string, id: string, subtype: string | null) => ({ Id: id, SystemModstamp: `2026-11-25T09:00:0${s}.000+0000`, TaskSubtype: subtype });
    expect(matches(at('1', '00T000000000003AAA', 'Task'), q.where)).toBe(true);
    expect(matches(at('1', '00T000000000002AAA', 'Task'), q.where)).toBe(false); // the cursor's own record
    expect(matches(at('2', '00T000000000001AAA', null), q.where)).toBe(true); // null is NOT IN any list
    expect(matches(at('2', '00T000000000009AAA', 'Call'), q.where)).toBe(false);
    expect(matches(at('0', '00T000000000009AAA', 'Task'), q.where)).toBe(false);
    const sorted = sortRecords([at('2', 'b', null), at('1', 'c', null), at('1', 'a', null)], q.orderBy).map((r) => r.Id);
    expect(sorted).toEqual(['a', 'c', 'b']);
  });

  it('compares strings with escapes, null with = and !=, dates, and answers MALFORMED_QUERY otherwise', () => {
    const q = parseSoql("SELECT Id FROM Contact WHERE LastName = 'O\\'Brien' AND Email != null AND CloseDate < 2027-01-01 LIMIT 5");
    expect(q.limit).toBe(5);
    expect(matches({ LastName: "O'Brien", Email: 'x@y.z', CloseDate: '2026-12-31' }, q.where)).toBe(true);
    expect(matches({ LastName: "O'Brien", Email: null, CloseDate: '2026-12-31' }, q.where)).toBe(false);
    for (const bad of ['SELECT FROM Contact', 'SELECT Id FROM Contact WHERE', 'SELECT Id FROM Contact WHERE Name LIKE 1', "SELECT Id FROM Contact WHERE Name = 'x' extra"]) {
      expect(() => parseSoql(bad), bad).toThrow(SoqlError);
    }
  });
});
