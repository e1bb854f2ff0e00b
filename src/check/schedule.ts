// The scheduling of check() (docs/check.md): the waits between retries, the wake-up signal and the queues of results.
import { startTimer } from '../clients/index.js';

// startTimer(): a wait past 2^31-1 ms is chained, where setTimeout() would fire at once.
export const sleep = (ms: number) => new Promise<void>((resolve) => startTimer(ms, resolve));

/** A wake-up signal: wait() resolves at the next fire(). */
export class Signal {
  #waiters: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  fire(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const f of w) f();
  }
}

/** A first-in first-out queue whose taken items are released (an array's shift() is linear, a kept index leaks). */
export class Queue<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(x: T): void {
    this.#items.push(x);
  }
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const x = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return x;
  }
}
