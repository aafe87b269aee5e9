import { AuthForm } from '../../features/auth/auth-form';
import { alertBox } from '../../lib/notify';
import { usePageTitle } from '../../lib/use-page-title';

export function Component() {
  usePageTitle('Register');
  return <AuthForm mode="register" onSuccess={() => void alertBox('User registered successfully', undefined, 'success')} />;
}
