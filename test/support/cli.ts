/**
 * The omniport command run in the test's own process: `run` is what bin/omniport.js calls (minus the exit),
 * so a command parses, configures, opens and closes the database exactly as the binary does, without the
 * cost of a new Node process and bundle for each line. Tests that need the binary itself spawn it.
 */
import { vi } from 'vitest';
import { run } from '../../src/cli';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command line with `env` as the whole environment, capturing what it prints. */
export async function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const text = (parts: unknown[]) => `${parts.map(String).join(' ')}\n`;
  const saved = process.env;
  process.env = { ...env };
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...parts) => void (stdout += text(parts))),
    vi.spyOn(console, 'info').mockImplementation((...parts) => void (stdout += text(parts))),
    vi.spyOn(console, 'warn').mockImplementation((...parts) => void (stderr += text(parts))),
    vi.spyOn(console, 'error').mockImplementation((...parts) => void (stderr += text(parts))),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true)),
  ];
  try {
    const code = await run(['node', 'omniport', ...args]);
    return { code, stdout, stderr };
  } finally {
    process.env = saved;
    for (const spy of spies) spy.mockRestore();
  }
}
