import { TASK_SECTIONS } from '@kamai/contract';
import { expect, it } from 'vitest';
import { WELCOME_SECTIONS } from './welcome-sections';

it("lists the contract's task sections in its order on the visitor's Home", () => {
  expect(WELCOME_SECTIONS).toEqual(TASK_SECTIONS);
});
