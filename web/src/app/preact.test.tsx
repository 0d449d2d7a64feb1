import { cleanup, render, screen } from '@testing-library/react';
import { Component as PreactComponent } from 'preact';
import { Component, useState } from 'react';
import { afterEach, expect, it } from 'vitest';

afterEach(cleanup);

function Greeting() {
  const [name] = useState('Kamai');
  return <p>Hello {name}</p>;
}

// The component tests are only worth their name if they render with the app's renderer
// (web/preact-compat.ts): `react` must be preact/compat here, for this file and for the libraries.
it('renders web components with Preact, one copy of it, through @testing-library/react', () => {
  expect(Component).toBe(PreactComponent);
  const { container } = render(<Greeting />);
  expect(screen.getByText('Hello Kamai')).toBeTruthy();
  // Preact keeps its virtual tree on the container it rendered into; React keeps a `__reactContainer$…` key.
  expect(Object.keys(container).some((key) => key.startsWith('__reactContainer'))).toBe(false);
  expect('__k' in container || '_children' in container).toBe(true);
});
