import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import { NoticeForm } from './notice-form';

/** What the form sent to the server: the body of each request, answered with an id. */
function captureRequests() {
  const bodies: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>);
      return new Response(JSON.stringify({ code: 200, message: 'ok', key: 'ok', data: { id: 9 } }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return bodies;
}

function renderForm() {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AntApp>
        <NoticeForm notice="new" onClose={onClose} />
      </AntApp>
    </QueryClientProvider>,
  );
  fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Diwali bonus' } });
  fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'Tasks pay double' } });
  return onClose;
}

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the notice form', () => {
  it('publishes a new notice on save', async () => {
    const bodies = captureRequests();
    const onClose = renderForm();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save and publish' }));
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies[0]).toMatchObject({ title: 'Diwali bonus', body: 'Tasks pay double', published: true });
  });

  it('keeps it a draft when the operator ticks "Save as draft"', async () => {
    const bodies = captureRequests();
    const onClose = renderForm();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Save as draft' }));
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Save draft' }));
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies[0]).toMatchObject({ title: 'Diwali bonus', published: false });
  });
});
