// The lazily loaded half of lib/dialog.ts: a confirmation in the app's dialog look (app/styles.css
// `.form-dialog`), on antd-mobile's CenterPopup, rendered imperatively with the React 19 adapter.
import './antd-render';
import Button from 'antd-mobile/es/components/button';
import CenterPopup from 'antd-mobile/es/components/center-popup';
import { renderImperatively } from 'antd-mobile/es/utils/render-imperatively';
import { type ReactNode, useId, useState } from 'react';

/** What a confirmation says and does: the same fields as antd-mobile's `Dialog.confirm` that the app uses. */
export interface ConfirmProps {
  title: ReactNode;
  content: ReactNode;
  confirmText: string;
  cancelText: string;
  /** Awaited (the confirm button shows a spinner) before the dialog closes. */
  onConfirm?: () => void | Promise<void>;
}

interface ConfirmDialogProps extends ConfirmProps {
  /** Called once, with the choice, before the dialog closes. */
  onChoice: (confirmed: boolean) => void;
  /** Set by renderImperatively. */
  visible?: boolean;
  onClose?: () => void;
  afterClose?: () => void;
}

function ConfirmDialog({ onChoice, visible, onClose, afterClose, ...props }: ConfirmDialogProps) {
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const cancel = () => {
    onChoice(false);
    onClose?.();
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm?.();
    } finally {
      setBusy(false);
    }
    onChoice(true);
    onClose?.();
  };
  return (
    <CenterPopup visible={visible} onMaskClick={cancel} afterClose={afterClose} bodyClassName="form-dialog">
      <section role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="form-dialog-title bold text-center">
          {props.title}
        </h2>
        <div className="stack form-dialog-body confirm-dialog-text text-15 text-center">{props.content}</div>
        <div className="form-dialog-footer">
          <Button type="button" block onClick={cancel}>
            {props.cancelText}
          </Button>
          <Button type="button" block color="primary" loading={busy} onClick={() => void confirm()}>
            {props.confirmText}
          </Button>
        </div>
      </section>
    </CenterPopup>
  );
}

/** Shows the confirmation; resolves true after `onConfirm` settled, false when cancelled or dismissed. */
export function confirm(props: ConfirmProps): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const onChoice = (confirmed: boolean) => {
      if (settled) return;
      settled = true;
      resolve(confirmed);
    };
    renderImperatively(<ConfirmDialog {...props} onChoice={onChoice} />);
  });
}
