// Asks the user on the terminal (standard input and standard error both terminals): a password
// without echo, or a line with echo.
import type { Io } from './command.js';
import { LocatorError } from '../core/errors.js';
import { ABORTED } from '../clients/index.js';

export async function readSecret(question: string, io: Io, echo = false): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  io.stderr.write(question);
  const raw = typeof stdin.setRawMode === 'function';
  if (raw && !echo) stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let text = '';
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') {
            stdin.off('data', onData);
            io.stderr.write('\n');
            resolve(text);
            return;
          }
          if (ch === '\u0003') {
            stdin.off('data', onData);
            reject(new LocatorError(ABORTED, -1, 'interrupted at the prompt'));
            return;
          }
          if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
          else text += ch;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    if (raw && !echo) stdin.setRawMode(false);
    stdin.pause();
  }
}
