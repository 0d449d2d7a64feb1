import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyStateView } from './empty-state-view';

/**
 * antd-mobile's empty picture, fetched the first time a page shows the offline state: the state is on
 * Home's first route (its skeleton), the picture and its helpers (~4.7 KB gzip) are not. The service
 * worker has the chunk offline. Until it is there the picture's box keeps its size with the texts in
 * place; if it cannot be had, the texts stand alone.
 */
let picture: ReactNode;
let loading: Promise<ReactNode> | undefined;

function loadPicture(): Promise<ReactNode> {
  loading ??= import('antd-mobile/es/components/error-block/images/empty').then((module) => {
    picture = module.emptyImage;
    return picture;
  });
  return loading;
}

function useEmptyPicture(): ReactNode {
  const [image, setImage] = useState(picture);
  useEffect(() => {
    if (image !== undefined) return;
    let live = true;
    loadPicture().then(
      (loaded) => live && setImage(loaded),
      () => {
        loading = undefined;
      },
    );
    return () => {
      live = false;
    };
  }, [image]);
  return image;
}

/** A page never loaded on this device, offline: it says so, as an empty state does. */
export function OfflineState() {
  const { t } = useTranslation();
  const image = useEmptyPicture();
  return <EmptyStateView image={image} title={t('offlinePage.title')} description={t('offlinePage.description')} />;
}
