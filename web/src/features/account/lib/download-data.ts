import { apiCall, messageOf } from '../../../lib/api';
import { toastError, toastSuccess } from '../../../lib/toast';

/**
 * "Download my data" (DPDP Act 2023, s. 11): the caller's records from `user/account/export`, saved
 * as a JSON file named for the day. `done` is the translated confirmation.
 */
export async function downloadMyData(done: string): Promise<void> {
  try {
    const data = await apiCall('accountExport', {});
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `kamai-my-data-${data.exportedAt.slice(0, 10)}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    toastSuccess(done);
  } catch (error) {
    toastError(messageOf(error));
  }
}
