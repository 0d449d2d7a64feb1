import { intlTag } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { InformationCircleOutline, PlayOutline, RedoOutline } from 'antd-mobile-icons';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { currentLocale } from '../../../i18n';
import { messageOf } from '../../../lib/api';
import { formatCount } from '../../../lib/format-date';
import { toastError } from '../../../lib/toast';
import { useIntro } from '../api/get-intro';
import { useMarkIntroViewed } from '../api/mark-intro-viewed';
import '../intro.css';

const STATEMENTS = ['newAccounts', 'noDeposit', 'agentCodes'] as const;

/** Tells the server once per visit that the introduction was seen, then lets the caller react (claim the task). */
function useViewedOnce(onViewed?: () => Promise<void> | void) {
  const { mutateAsync } = useMarkIntroViewed();
  const sent = useRef(false);
  const latest = useRef(onViewed);
  latest.current = onViewed;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutateAsync()
      .then(() => latest.current?.())
      .catch((error: unknown) => toastError(messageOf(error)));
  }, [mutateAsync]);
}

function Facts() {
  const { t } = useTranslation(['intro', 'common']);
  const intro = useIntro();
  if (intro.isPending) return <SkeletonRows rows={1} label={t('common:dialog.loading')} />;
  if (intro.isError) return <p className="intro-text">{t('common:request.failed')}</p>;
  const locale = currentLocale();
  const { userCount, countryCount, countries } = intro.data;
  const regions = new Intl.DisplayNames(intlTag(locale), { type: 'region', fallback: 'code' });
  const names = countries.map((code) => regions.of(code) ?? code);
  const list = new Intl.ListFormat(intlTag(locale), { type: 'conjunction' }).format(names);
  const facts = { users: formatCount(userCount, locale), countries: formatCount(countryCount, locale) };
  return (
    <p className="intro-text intro-facts">
      {countries.length > 0 ? t('intro:factsWithList', { ...facts, list }) : t('intro:facts', facts)}
    </p>
  );
}

function Video() {
  const { t } = useTranslation('intro');
  const intro = useIntro();
  const video = useRef<HTMLVideoElement>(null);
  const url = intro.data?.videoUrl ?? null;
  const replay = () => {
    const element = video.current;
    if (!element) return;
    element.currentTime = 0;
    void element.play().catch(() => undefined);
  };
  return (
    <section className="intro-video-card" aria-label={t('videoLabel')}>
      {url ? (
        // biome-ignore lint/a11y/useMediaCaption: the operator uploads the video; no caption track exists for it.
        <video ref={video} className="intro-video" controls playsInline preload="metadata" src={url} />
      ) : (
        <div className="intro-video intro-video-empty">
          <PlayOutline aria-hidden />
          <p>{intro.isPending ? '\u00a0' : t('noVideo')}</p>
        </div>
      )}
      <Button block shape="rounded" color="primary" fill="outline" disabled={!url} onClick={replay}>
        <RedoOutline className="intro-replay-icon" aria-hidden /> {t('reintroduce')}
      </Button>
    </section>
  );
}

/** /Intro1: the platform introduction, its operator-set facts, and the presentation video. */
export function IntroPage({ onViewed }: { onViewed?: () => Promise<void> | void }) {
  const { t } = useTranslation('intro');
  useViewedOnce(onViewed);
  return (
    <div className="intro-page">
      <Video />
      <section className="intro-card" aria-labelledby="intro-title">
        <h2 id="intro-title" className="intro-title">
          {t('title')}
        </h2>
        <p className="intro-text">{t('summary')}</p>
        <Facts />
      </section>
      <section className="intro-card" aria-labelledby="intro-points">
        <h2 id="intro-points" className="intro-title">
          {t('pointsTitle')}
        </h2>
        <ul className="intro-points">
          {STATEMENTS.map((key) => (
            <li key={key}>
              <InformationCircleOutline aria-hidden />
              <span>{t(`points.${key}`)}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
