import type { Session, User } from '@supabase/supabase-js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { errorMessage, succeeded } from './errors.ts';
import { accountQueryOptions, type Organization, type UserProfile } from './session-api.ts';
import { supabase } from './supabase.ts';

export type SessionStatus = 'loading' | 'signed-out' | 'signed-in';

/**
 * What the signed-in user must do before the app shows anything of the organisation: enter a
 * code of their authenticator app (they have one, and this session has not proved it), or set
 * one up (their organisation requires it of admins).
 */
export type SecondFactorStep = { kind: 'challenge'; factorId: string } | { kind: 'enrol' } | null;

/** The `aal` claim of an access token (`aal1` when it cannot be read). */
function assuranceLevel(session: Session): string {
  try {
    const payload = session.access_token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    return (JSON.parse(json) as { aal?: string }).aal ?? 'aal1';
  } catch {
    return 'aal1';
  }
}

/** A verified TOTP factor this session has not proved yet, if any. */
function pendingChallenge(session: Session | null): string | null {
  if (!session || assuranceLevel(session) === 'aal2') return null;
  const factor = session.user.factors?.find(
    (f) => f.status === 'verified' && f.factor_type === 'totp',
  );
  return factor?.id ?? null;
}

interface TwoFactorStatus {
  required: boolean;
  enrolled: boolean;
  session_verified: boolean;
}

export interface SessionState {
  /** `loading` until supabase-js has read the stored session. */
  status: SessionStatus;
  session: Session | null;
  user: User | null;
  /** The caller's profile; null while loading or signed out. */
  profile: UserProfile | null;
  /** The caller's organisation; null without one, or while loading. */
  organization: Organization | null;
  /** True while the profile and organisation of a signed-in user load for the first time. */
  profileLoading: boolean;
  profileError: string | null;
  /** A second factor to prove or set up before anything else; null when there is none. */
  secondFactor: SecondFactorStep;
  /** Reloads profile and organisation (after creating an organisation, accepting an invitation…). */
  refreshProfile(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

/**
 * Follows supabase-js's auth-state events (unsubscribing when unmounted) and keeps the session;
 * the profile and organisation of the signed-in user are a query of their own.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [auth, setAuth] = useState<{ status: SessionStatus; session: Session | null }>({
    status: 'loading',
    session: null,
  });
  const queryClient = useQueryClient();

  useEffect(() => {
    const client = supabase();
    let active = true;
    // undefined until the stored session is known.
    let currentUser: string | null | undefined;
    const record = (next: Session | null) => {
      // Nothing one user loaded may be shown to the next one signed in on this tab. (The first
      // answer only says who is signed in: what was loaded meanwhile is theirs.)
      const nextUser = next?.user.id ?? null;
      if (currentUser !== undefined && nextUser !== currentUser) queryClient.clear();
      currentUser = nextUser;
      setAuth({ status: next ? 'signed-in' : 'signed-out', session: next });
    };
    client.auth.getSession().then(({ data }) => {
      if (active) record(data.session);
    });
    // The callback only records state: calling supabase-js from inside it can deadlock.
    const { data } = client.auth.onAuthStateChange((_event, next) => {
      if (active) record(next);
    });
    return () => {
      active = false;
      data.subscription.unsubscribe();
    };
  }, [queryClient]);

  const userId = auth.session?.user.id ?? null;
  const challengeFactor = pendingChallenge(auth.session);
  const aal = auth.session ? assuranceLevel(auth.session) : null;
  // Asked before anything of the organisation: while an admin must use a second factor and
  // has not, the database refuses them everything else.
  const twoFactor = useQuery({
    queryKey: ['two-factor', 'status', userId, aal],
    queryFn: async (): Promise<TwoFactorStatus> => {
      const { data } = await succeeded(supabase().rpc('two_factor_status'));
      return data as unknown as TwoFactorStatus;
    },
    enabled: userId !== null && challengeFactor === null,
  });
  const mustEnrol = twoFactor.data?.required === true && !twoFactor.data.session_verified;
  const secondFactor = useMemo<SecondFactorStep>(
    () =>
      challengeFactor
        ? { kind: 'challenge', factorId: challengeFactor }
        : mustEnrol
          ? { kind: 'enrol' }
          : null,
    [challengeFactor, mustEnrol],
  );
  const account = useQuery({
    ...accountQueryOptions(userId ?? ''),
    enabled: userId !== null && challengeFactor === null && twoFactor.isSuccess && !secondFactor,
  });

  const refreshProfile = useCallback(async () => {
    // Asks the client, not React state: right after a sign-in or sign-up (accepting an
    // invitation) the state may not have caught up with the new session yet.
    const { data } = await supabase().auth.getSession();
    const id = data.session?.user.id;
    if (!id) return;
    const options = accountQueryOptions(id);
    // A load still running may have started before the change (an organisation created, an
    // invitation accepted): it is dropped, so it cannot put the older account back.
    await queryClient.cancelQueries({ queryKey: options.queryKey });
    // A failure is kept in the query, where the shell shows it with Try again.
    await queryClient.fetchQuery({ ...options, staleTime: 0 }).catch(() => undefined);
  }, [queryClient]);

  const signOut = useCallback(async () => {
    await succeeded(supabase().auth.signOut());
  }, []);

  const value = useMemo<SessionState>(
    () => ({
      status: auth.status,
      session: auth.session,
      user: auth.session?.user ?? null,
      profile: account.data?.profile ?? null,
      organization: account.data?.organization ?? null,
      profileLoading: auth.status === 'signed-in' && account.isPending,
      profileError: twoFactor.isError
        ? errorMessage(twoFactor.error)
        : account.isError
          ? errorMessage(account.error)
          : null,
      secondFactor,
      refreshProfile,
      signOut,
    }),
    [
      auth,
      secondFactor,
      twoFactor.isError,
      twoFactor.error,
      account.data,
      account.isPending,
      account.isError,
      account.error,
      refreshProfile,
      signOut,
    ],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session, profile and organisation of the signed-in user. */
export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
