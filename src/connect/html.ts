import { htmlEscape } from 'escape-goat';

/** Markup that is already safe: produced by `html`, never by concatenating input. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

/**
 * Tagged template for HTML: every interpolated value is escaped (escape-goat: `& < > " '`), except
 * fragments built with `html` itself; arrays are joined; null, undefined and false render nothing.
 * Attribute values are always written in double quotes, so escaped values cannot leave them.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return htmlEscape(String(value));
}
