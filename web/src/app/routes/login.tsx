import { useLocation, useNavigate } from 'react-router-dom';
import { AuthForm } from '../../features/auth/auth-form';
import { alertBox } from '../../lib/notify';
import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  usePageTitle('Login');
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from;
  return (
    <AuthForm
      mode="login"
      onSuccess={() => {
        void alertBox('Login Successful', undefined, 'success');
        navigate(from && from.startsWith('/') ? from : '/');
      }}
    />
  );
}
