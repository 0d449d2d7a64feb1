import type { AdminTask } from '@kamai/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import { TaskForm } from './task-form';

/** What the form sent to the server: the body of each request, answered with an id. */
function captureRequests() {
  const bodies: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>);
      return new Response(JSON.stringify({ code: 200, message: 'ok', key: 'ok', data: { id: 101 } }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return bodies;
}

const task: AdminTask = {
  id: 101,
  section: 'hot',
  kind: 'custom',
  reward: '15.00',
  titles: { en_US: 'Follow us', hi_IN: 'हमें फ़ॉलो करें' },
  descriptions: { en_US: 'Follow the page', hi_IN: 'पेज फ़ॉलो करें' },
  links: { en_US: 'https://example.com/en' },
  targetCount: 1,
  startsAt: null,
  endsAt: null,
  sort: 0,
  active: true,
  system: false,
  verification: { kind: 'proof', proof: 'link' },
  completions: 0,
  pendingProofs: 0,
};

function renderForm() {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AntApp>
        <TaskForm task={task} onClose={onClose} />
      </AntApp>
    </QueryClientProvider>,
  );
  return onClose;
}

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the task form', () => {
  it('flags each language whose title or description is missing, and clears the flag once written', async () => {
    renderForm();
    // Hindi has both; Gujarati has neither.
    expect(screen.getByTestId('task-tab-hi_IN').textContent).not.toContain('missing');
    expect(screen.getByTestId('task-tab-gu_IN').textContent).toContain('missing');
    fireEvent.change(screen.getByLabelText('Title — ગુજરાતી'), { target: { value: 'અમને ફોલો કરો' } });
    // A title alone is not enough while there is an English description to translate.
    await waitFor(() => expect(screen.getByTestId('task-tab-gu_IN').textContent).toContain('missing'));
    fireEvent.change(screen.getByLabelText('Description — ગુજરાતી'), { target: { value: 'પેજ ફોલો કરો' } });
    await waitFor(() => expect(screen.getByTestId('task-tab-gu_IN').textContent).not.toContain('missing'));
  });

  it('sends descriptions and links per language, leaving out blank ones', async () => {
    const bodies = captureRequests();
    const onClose = renderForm();
    fireEvent.change(screen.getByLabelText('Link — हिन्दी'), { target: { value: 'https://example.com/hi' } });
    fireEvent.change(screen.getByLabelText('Description — ਪੰਜਾਬੀ'), { target: { value: '   ' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies[0]).toMatchObject({
      id: 101,
      titles: { en_US: 'Follow us', hi_IN: 'हमें फ़ॉलो करें' },
      descriptions: { en_US: 'Follow the page', hi_IN: 'पेज फ़ॉलो करें' },
      links: { en_US: 'https://example.com/en', hi_IN: 'https://example.com/hi' },
    });
    expect(bodies[0]?.descriptions).not.toHaveProperty('pa_IN');
  });

  it('refuses a link that is not http(s) under its field, and sends nothing', async () => {
    const bodies = captureRequests();
    const onClose = renderForm();
    fireEvent.change(screen.getByLabelText('Link — English'), { target: { value: 'javascript:alert(1)' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(await screen.findByText('Enter a link starting with http:// or https://')).toBeTruthy();
    expect(bodies).toHaveLength(0);
    expect(onClose).not.toHaveBeenCalled();
  });
});
