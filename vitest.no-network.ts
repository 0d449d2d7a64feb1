// The component tests (happy-dom) open no server: a request a component sends would otherwise go to
// happy-dom's default origin, http://localhost:3000, whatever listens there on the machine. Every
// fetch fails here as it does offline (a TypeError), unless a test stubs fetch itself.
globalThis.fetch = async (input: string | URL | Request) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  throw new TypeError(`fetch failed: component tests reach no server (${url})`);
};
