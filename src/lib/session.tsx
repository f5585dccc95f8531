import type { Session, User } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  fetchOrganization,
  fetchProfile,
  type Organization,
  type UserProfile,
} from './session-api.ts';
import { supabase } from './supabase.ts';

export type SessionStatus = 'loading' | 'signed-out' | 'signed-in';

export interface SessionState {
  /** `loading` until supabase-js has read the stored session. */
  status: SessionStatus;
  session: Session | null;
  user: User | null;
  /** The caller's profile; null while loading or signed out. */
  profile: UserProfile | null;
  /** The caller's organisation; null without one, or while loading. */
  organization: Organization | null;
  /** True while the profile and organisation of a signed-in user load. */
  profileLoading: boolean;
  profileError: string | null;
  /** Reloads profile and organisation (after creating an organisation, accepting an invitation…). */
  refreshProfile(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

interface ProfileState {
  userId: string | null;
  profile: UserProfile | null;
  organization: Organization | null;
  error: string | null;
  loading: boolean;
}

const noProfile: ProfileState = {
  userId: null,
  profile: null,
  organization: null,
  error: null,
  loading: false,
};

/**
 * Follows supabase-js's auth-state events and keeps the session, the profile and the
 * organisation of the signed-in user. Unsubscribes when unmounted.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [session, setSession] = useState<Session | null>(null);
  const [profileState, setProfileState] = useState<ProfileState>(noProfile);
  const userId = session?.user.id ?? null;
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
      setSession(next);
      setStatus(next ? 'signed-in' : 'signed-out');
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

  // Only the latest load may write its result: a load started by the SIGNED_IN event can
  // finish after a refresh that followed it (e.g. accepting an invitation right after sign-up)
  // and must not put the older profile back.
  const latestLoad = useRef(0);
  const loadProfile = useCallback(async (id: string) => {
    const load = ++latestLoad.current;
    setProfileState((previous) => ({
      ...(previous.userId === id ? previous : noProfile),
      userId: id,
      loading: true,
      error: null,
    }));
    try {
      const profile = await fetchProfile(id);
      const organization = profile.organization_id
        ? await fetchOrganization(profile.organization_id)
        : null;
      if (load !== latestLoad.current) return;
      setProfileState((previous) =>
        previous.userId === id
          ? { userId: id, profile, organization, error: null, loading: false }
          : previous,
      );
    } catch (error) {
      if (load !== latestLoad.current) return;
      setProfileState((previous) =>
        previous.userId === id
          ? {
              ...previous,
              loading: false,
              error: error instanceof Error ? error.message : String(error),
            }
          : previous,
      );
    }
  }, []);

  useEffect(() => {
    if (userId) void loadProfile(userId);
    else setProfileState(noProfile);
  }, [userId, loadProfile]);

  const refreshProfile = useCallback(async () => {
    // Asks the client, not React state: right after a sign-in or sign-up (accepting an
    // invitation) the state may not have caught up with the new session yet.
    const { data } = await supabase().auth.getSession();
    const id = data.session?.user.id;
    if (id) await loadProfile(id);
  }, [loadProfile]);

  const signOut = useCallback(async () => {
    const { error } = await supabase().auth.signOut();
    if (error) throw error;
  }, []);

  const value = useMemo<SessionState>(
    () => ({
      status,
      session,
      user: session?.user ?? null,
      profile: profileState.userId === userId ? profileState.profile : null,
      organization: profileState.userId === userId ? profileState.organization : null,
      profileLoading:
        status === 'signed-in' && (profileState.loading || profileState.userId !== userId),
      profileError: profileState.userId === userId ? profileState.error : null,
      refreshProfile,
      signOut,
    }),
    [status, session, userId, profileState, refreshProfile, signOut],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session, profile and organisation of the signed-in user. */
export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
