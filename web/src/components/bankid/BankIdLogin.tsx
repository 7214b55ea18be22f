import { useNavigate } from 'react-router';
import { startBankIdLogin } from '../../api/bankid';
import { completeLogin } from '../../auth/flow';
import BankIdPanel from './BankIdPanel';

/** Signing in with BankID on the login page (loaded when its button is pressed). */
export default function BankIdLogin({ origin, onClose, onNoRole }: { origin: string | null; onClose: () => void; onNoRole: () => void }) {
  const navigate = useNavigate();
  return (
    <BankIdPanel
      start={startBankIdLogin}
      signedIn={false}
      onClose={onClose}
      onComplete={async (p) => {
        if (!p.auth) return;
        const outcome = await completeLogin(p.auth, origin);
        if (outcome.kind === 'signedIn') navigate(outcome.target, { replace: true });
        else onNoRole();
      }}
    />
  );
}
