import { useEffect } from 'react';
import { useIsLoggedIn } from '../lib/api';
import { showForm } from '../lib/form-dialog';
import { rememberInvite } from '../lib/pending-invite';
import { useLocation, useNavigate } from '../lib/router';

/**
 * An invite link (`?invite=CODE` on any page) opens the register form for a visitor with the code filled
 * in. The code is kept for the tab until registration succeeds (the register form reads it back when it
 * shows again), and dropped from the address so a reload does not open the form again.
 */
export function useInviteParam(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const loggedIn = useIsLoggedIn();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const code = params.get('invite')?.trim();
    if (!code) return;
    params.delete('invite');
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
    if (loggedIn) return;
    rememberInvite(code);
    showForm('register', { inviteCode: code });
  }, [location, navigate, loggedIn]);
}
