import { LOCALES } from '@kamai/contract/constants';
import { createInstance, type i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../config/paths';
import { entries, entryTextKey, type ScreenKey } from '../features/users/components/profile-menu';
import { appRoutes, routeOf } from './routes';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('../i18n/locales/*/*.json', { eager: true, import: 'default' });

function bundle(locale: string): Record<string, Tree> {
  const prefix = `../i18n/locales/${locale}/`;
  return Object.fromEntries(
    Object.entries(files)
      .filter(([path]) => path.startsWith(prefix))
      .map(([path, tree]) => [path.slice(prefix.length, -'.json'.length), tree]),
  );
}

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : flatten(value, path);
  });
}

const screens = Object.keys(bundle('en_US').common?.screens ?? {}) as ScreenKey[];

/**
 * Texts that send the user to a screen name it by nesting the screen's one name (`$t(common:screens.x)`),
 * never by a copy of it that can drift. Each of these points to the screen beside it.
 */
const POINTERS: [text: string, screen: ScreenKey][] = [
  ['common:tabs.home', 'home'],
  ['common:tabs.add', 'add'],
  ['common:tabs.user', 'user'],
  ['common:notFound.action', 'home'],
  ['users:deleted.home', 'home'],
  ['users:deleted.kept', 'privacy'],
  ['withdrawals:receipt.doneText', 'reviews'],
  ['linked:result.linked', 'onlineAccounts'],
  ['linked:result.viewAccounts', 'onlineAccounts'],
  ['linked:accounts.empty.description', 'add'],
  ['wallet:listLabel', 'income'],
  ['complaints:list.label', 'complaints'],
  ['complaints:entry.mine', 'complaints'],
  ['complaints:action.raise', 'complaintNew'],
];

describe('one name for each screen', () => {
  it('has a name for every screen in the route table, and no name without a screen', () => {
    expect([...new Set(appRoutes.map((route) => route.titleKey))].sort()).toEqual([...screens].sort());
  });

  it('links every screen row of the My menu to the screen of its name', () => {
    for (const entry of entries.filter((e) => e.screen)) {
      expect(routeOf(paths[entry.key as ScreenKey])?.titleKey, entry.key).toBe(entry.key);
    }
  });

  describe.each(LOCALES)('%s', (locale) => {
    const resources = bundle(locale);
    let i18n: I18n;
    beforeAll(async () => {
      i18n = createInstance();
      await i18n.init({ lng: locale, resources: { [locale]: resources }, defaultNS: 'common', fallbackLng: false });
    });
    const title = (screen: ScreenKey) => i18n.t(`common:screens.${screen}`);

    it('names every screen, in words of its own', () => {
      for (const screen of screens) {
        expect(title(screen), screen).not.toMatch(/\$t\(|screens\./);
      }
      expect(new Set(screens.map(title)).size, 'two screens share a name').toBe(screens.length);
    });

    it('shows on each menu row the title of the screen it opens', () => {
      for (const entry of entries.filter((e) => e.screen)) {
        const route = routeOf(paths[entry.key as ScreenKey]);
        expect(route, entry.key).toBeDefined();
        if (route) expect(i18n.t(entryTextKey(entry)), entry.key).toBe(title(route.titleKey));
      }
    });

    it('names the screen a pointing text sends the user to', () => {
      for (const [key, screen] of POINTERS) {
        const [namespace = '', path = ''] = key.split(':');
        const raw = flatten(resources[namespace] ?? {}).find(([k]) => k === path)?.[1];
        expect(raw, key).toContain(`$t(common:screens.${screen})`);
        expect(i18n.t(key as 'brand', { id: 1, net: '₹1', phone: '+91', count: 1 }), key).toContain(title(screen));
      }
    });

    it('nests only texts that exist, and only screens that the app has', () => {
      for (const [namespace, tree] of Object.entries(resources)) {
        for (const [key, text] of flatten(tree)) {
          for (const [, nested = ''] of text.matchAll(/\$t\(([^)]+)\)/g)) {
            expect(i18n.exists(nested), `${namespace}:${key} nests ${nested}`).toBe(true);
            const screen = /^common:screens\.(\w+)$/.exec(nested)?.[1];
            expect(screen && screens.includes(screen as ScreenKey), `${namespace}:${key} nests ${nested}`).toBe(true);
          }
        }
      }
    });
  });
});
