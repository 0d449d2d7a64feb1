import Button from 'antd-mobile/es/components/button';
import { InformationCircleOutline, PlayOutline, RedoOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { currentLocale } from '../../../i18n';
import { messageOf } from '../../../lib/api';
import { formatCount } from '../../../lib/format-date';
import { toastError } from '../../../lib/toast';
import { useIntro } from '../api/get-intro';
import { useReportIntroProgress } from '../api/mark-intro-viewed';
import '../intro.css';
import { joinNames, regionNames } from '../region-names';

const STATEMENTS = ['newAccounts', 'noDeposit', 'agentCodes'] as const;

/** Seconds actually played: the union of the played ranges, so seeking ahead does not count. */
function playedSeconds(video: HTMLVideoElement): number {
  let total = 0;
  for (let i = 0; i < video.played.length; i++) total += video.played.end(i) - video.played.start(i);
  return total;
}

/** How often the page tells the server how much has been played, while the video plays. */
const REPORT_EVERY_MS = 5000;

/**
 * Reports watching to the server: once when the page opens (the server starts its clock), every few
 * seconds while playing, and on pause and end. Once the server says 80 % is reached, `onWatched` runs
 * (the route claims the task).
 */
function useWatchReports(
  video: React.RefObject<HTMLVideoElement | null>,
  hasVideo: boolean,
  onWatched?: () => unknown,
) {
  const { mutateAsync } = useReportIntroProgress();
  const [share, setShare] = useState<{ watched: number; required: number; complete: boolean } | null>(null);
  const done = useRef(false);
  const latest = useRef(onWatched);
  latest.current = onWatched;

  useEffect(() => {
    if (!hasVideo) return;
    const element = video.current;
    let lastSent = 0;
    const report = (force: boolean) => {
      const now = Date.now();
      if (!force && now - lastSent < REPORT_EVERY_MS) return;
      lastSent = now;
      const seconds = element ? playedSeconds(element) : 0;
      mutateAsync(seconds)
        .then((result) => {
          setShare({ watched: result.watchedSeconds, required: result.requiredSeconds, complete: result.complete });
          if (result.complete && !done.current) {
            done.current = true;
            return latest.current?.();
          }
        })
        .catch((error: unknown) => toastError(messageOf(error)));
    };
    report(true);
    if (!element) return;
    const onTime = () => report(false);
    const onStop = () => report(true);
    element.addEventListener('timeupdate', onTime);
    element.addEventListener('pause', onStop);
    element.addEventListener('ended', onStop);
    return () => {
      element.removeEventListener('timeupdate', onTime);
      element.removeEventListener('pause', onStop);
      element.removeEventListener('ended', onStop);
    };
  }, [hasVideo, mutateAsync, video]);
  return share;
}

function Facts() {
  const { t } = useTranslation(['intro', 'common']);
  const intro = useIntro();
  if (intro.isPending) return <SkeletonRows rows={1} label={t('common:dialog.loading')} />;
  if (intro.isError) return <p className="intro-text text-14">{t('common:request.failed')}</p>;
  const locale = currentLocale();
  const { userCount, countryCount, countries } = intro.data;
  // Figures only an operator has set: a fresh install claims nothing.
  if (userCount === null || countryCount === null) return null;
  const names = countries.map(regionNames(locale));
  const list = joinNames(names, locale);
  const facts = { users: formatCount(userCount, locale), countries: formatCount(countryCount, locale) };
  return (
    <p className="intro-text intro-facts radius-10 semibold text-14">
      {countries.length > 0 ? t('intro:factsWithList', { ...facts, list }) : t('intro:facts', facts)}
    </p>
  );
}

function Video({ onWatched }: { onWatched?: () => unknown }) {
  const { t } = useTranslation('intro');
  const intro = useIntro();
  const video = useRef<HTMLVideoElement>(null);
  const url = intro.data?.videoUrl ?? null;
  const share = useWatchReports(video, Boolean(url), onWatched);
  const replay = () => {
    const element = video.current;
    if (!element) return;
    element.currentTime = 0;
    void element.play().catch(() => undefined);
  };
  return (
    <section className="stack card intro-video-card" aria-label={t('videoLabel')}>
      {url ? (
        // biome-ignore lint/a11y/useMediaCaption: the operator uploads the video; no caption track exists for it.
        <video ref={video} className="intro-video radius-10" controls playsInline preload="metadata" src={url} />
      ) : (
        <div className="intro-video radius-10 intro-video-empty text-14">
          <PlayOutline aria-hidden />
          <p>{intro.isPending ? '\u00a0' : t('noVideo')}</p>
        </div>
      )}
      {url && share && (
        <p className="intro-watch text-center" aria-live="polite">
          {share.complete
            ? t('watchDone')
            : t('watchProgress', {
                percent: Math.min(100, Math.floor((share.watched / Math.max(share.required / 0.8, 1)) * 100)),
              })}
        </p>
      )}
      <Button block shape="rounded" color="primary" fill="outline" disabled={!url} onClick={replay}>
        <RedoOutline className="intro-replay-icon" aria-hidden /> {t('reintroduce')}
      </Button>
    </section>
  );
}

/**
 * /Intro1: the platform introduction, its operator-set facts, and the presentation video. Its task is
 * claimed once 80 % of the video has been played (no video: the task is hidden, nothing to claim).
 */
export function IntroPage({ onViewed }: { onViewed?: () => Promise<void> | void }) {
  const { t } = useTranslation('intro');
  return (
    <div className="stack intro-page">
      <Video onWatched={onViewed} />
      <section className="stack card intro-card" aria-labelledby="intro-title">
        <h2 id="intro-title" className="intro-title bold">
          {t('title')}
        </h2>
        <p className="intro-text text-14">{t('summary')}</p>
        <Facts />
      </section>
      <section className="stack card intro-card" aria-labelledby="intro-points">
        <h2 id="intro-points" className="intro-title bold">
          {t('pointsTitle')}
        </h2>
        <ul className="stack plain-list intro-points">
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
