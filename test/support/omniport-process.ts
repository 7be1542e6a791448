import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

const bin = path.resolve(import.meta.dirname, '../../bin/omniport.js');

export interface OmniportProcess {
  /** The address the process says it listens on, e.g. `http://127.0.0.1:41234`. */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** SIGTERM (or the given signal), then waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export class OmniportExitedError extends Error {
  constructor(readonly output: string) {
    super(`omniport exited before listening:\n${output}`);
  }
}

/**
 * `omniport start` (or `command`) in a child process, on PORT=0 unless the environment or the arguments say
 * otherwise: the address comes from the line the process prints when it listens, never from a port chosen
 * beforehand — another test's server could take such a port meanwhile and answer in its place (a CI run's
 * 401: the key was right, the server was another's). A start takes seconds on a quiet machine and over a
 * minute on a loaded 2-core one.
 */
export function startOmniport(opts: { env: NodeJS.ProcessEnv; command?: string[]; cwd?: string; detached?: boolean; timeoutMs?: number }): Promise<OmniportProcess> {
  const [file, ...args] = opts.command ?? ['node', bin, 'start'];
  const child = spawn(file!, args, { env: { PORT: '0', ...opts.env }, cwd: opts.cwd, detached: opts.detached });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      // Detached: a group (`npm start` runs the server as its child), ended as a whole.
      if (opts.detached) process.kill(-child.pid!, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGKILL');
      reject(new Error(`omniport did not listen within ${opts.timeoutMs ?? 150_000} ms:\n${output}`));
    }, opts.timeoutMs ?? 150_000);
    const onData = (d: Buffer) => {
      output += d;
      const url = output.match(/Omniport listening on (https?:\/\/[^\s"()]+)/)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, output: () => output, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new OmniportExitedError(output));
    });
  });
}
