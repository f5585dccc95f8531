/**
 * The schema as supabase-js sees it (the shape `supabase gen types typescript` produces).
 * Kept in step with supabase/migrations; a test compares it with the live schema.
 */
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];

export interface Database {
  public: {
    Tables: Record<string, never>;
    Views: Record<string, never>;
    Functions: Record<string, never>;
    Enums: Record<string, never>;
    CompositeTypes: Record<string, never>;
  };
}
