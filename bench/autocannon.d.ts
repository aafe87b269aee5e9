// autocannon ships no types; we use only the instance promise and its 'response' event.
declare module 'autocannon' {
  interface Instance extends PromiseLike<{ duration: number; errors: number; timeouts: number; non2xx: number }> {
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, responseTime: number) => void): void;
  }
  function autocannon(options: Record<string, unknown>): Instance;
  export default autocannon;
}
