/**
 * The schema as supabase-js sees it, in the shape `supabase gen types typescript` produces,
 * kept by hand in step with `supabase/migrations/`. `tests/backend/schema-types.test.ts`
 * compares it with the live database: tables, columns, nullability, type families, foreign
 * keys, functions and their arguments, and the value lists below against the check constraints.
 *
 * Columns that Postgres constrains to a fixed list (roles, categories, statuses) are typed as
 * those literal unions, as `gen types` does for enums.
 */
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];
/** A `jsonb not null` column that always holds an object. */
export type JsonObject = { [key: string]: Json | undefined };
/** A `jsonb not null` column that always holds an array. */
export type JsonArray = Json[];

// ---------------------------------------------------------------------------------------------
// Value lists of the check constraints
// ---------------------------------------------------------------------------------------------

export const USER_ROLES = ['user', 'admin', 'master_admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** The roles an invitation (and update_user_role) may give. */
export const INVITABLE_ROLES = ['user', 'admin'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/** The specification's 14 document categories, in its order. */
export const DOCUMENT_CATEGORIES = [
  'HR',
  'Accounting',
  'Branding',
  'Social Media',
  'Communications',
  'Volunteer/People Management',
  'Streaming: Video & Podcast',
  'Reports',
  'Governance',
  'Legal',
  'Funding',
  'Financial',
  'Operations',
  'Other',
] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];

export const DOCUMENT_STATUSES = ['Active'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Where reading a document's text stands: "Indexing…" while pending, "Text not available" when failed or unavailable. */
export const DOCUMENT_TEXT_STATES = ['pending', 'ready', 'failed', 'unavailable'] as const;
export type DocumentTextState = (typeof DOCUMENT_TEXT_STATES)[number];

/** The nine operations category keys (routes /operations/{key}). */
export const OPERATIONS_CATEGORY_KEYS = [
  'hr',
  'accounting',
  'communications',
  'legal',
  'branding',
  'social-media',
  'volunteer-management',
  'streaming',
  'it',
] as const;
export type OperationsCategoryKey = (typeof OPERATIONS_CATEGORY_KEYS)[number];

/** The specification's categories for editing an integration. */
export const INTEGRATION_CATEGORIES = [
  'HRIS',
  'Payroll',
  'Benefits',
  'Safety',
  'Insurance',
  'Accounting',
  'Invoicing',
  'Free',
  'Legal Services',
  'E-Signature',
  'Practice Management',
  'Contract Management',
  'Compliance',
  'Design',
  'Professional',
  'UI/UX',
  'Monitoring',
  'Management',
  'Scheduling',
  'Enterprise',
  'Visual',
  'Internal',
  'Email Marketing',
  'Video',
  'Volunteer',
  'Opportunities',
  'Streaming',
  'Podcast',
  'Custom',
] as const;
export type IntegrationCategory = (typeof INTEGRATION_CATEGORIES)[number];

export const CORPORATE_ENTITY_TYPES = [
  'Non-Profit Corporation',
  'Corporation',
  'LLC',
  'Partnership',
  'Other',
] as const;
export type CorporateEntityType = (typeof CORPORATE_ENTITY_TYPES)[number];

export const CORPORATE_STATUSES = ['Active', 'Inactive', 'Suspended', 'Unknown'] as const;
export type CorporateStatusValue = (typeof CORPORATE_STATUSES)[number];

export const ANNUAL_REPORT_STATUSES = ['Current', 'Due Soon', 'Overdue', 'Unknown'] as const;
export type AnnualReportStatus = (typeof ANNUAL_REPORT_STATUSES)[number];

/** Why a document version was superseded (Renew is the first; later changes add theirs). */
export const DOCUMENT_VERSION_CHANGES = [
  'renewal',
  'file_replacement',
  'content_edit',
  'properties_edit',
  'version_restore',
] as const;
export type DocumentVersionChange = (typeof DOCUMENT_VERSION_CHANGES)[number];

/** Who receives reminders: the responsible member (else the admins), all admins, or both. */
export const REMINDER_RECIPIENTS = ['responsible', 'admins', 'both'] as const;
export type ReminderRecipients = (typeof REMINDER_RECIPIENTS)[number];

/** What a calendar address shows: every document of the organisation, or the member's own. */
export const CALENDAR_FEED_SCOPES = ['all', 'mine'] as const;
export type CalendarFeedScope = (typeof CALENDAR_FEED_SCOPES)[number];

/** What an Outbox message is: documents a member sent, an invitation, a reminder digest. */
export const OUTBOX_MESSAGE_KINDS = ['documents', 'invitation', 'reminders'] as const;
export type OutboxMessageKind = (typeof OUTBOX_MESSAGE_KINDS)[number];

/**
 * Where a message stands: `queued` (waiting for a delivery attempt), `sent` (accepted by the
 * SMTP server), `failed` (every attempt failed), `outbox` (kept: no SMTP is configured).
 */
export const OUTBOX_MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'outbox'] as const;
export type OutboxMessageStatus = (typeof OUTBOX_MESSAGE_STATUSES)[number];

// ---------------------------------------------------------------------------------------------
// The schema
// ---------------------------------------------------------------------------------------------

/** `organization_exports.status`: waiting, being written, downloadable, failed, removed. */
export const EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** `organization_imports.status`. */
export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export type Database = {
  public: {
    Tables: {
      activity_log: {
        Row: {
          actor_id: string | null;
          actor_name: string | null;
          details: JsonObject;
          document_id: string | null;
          id: number;
          kind: string;
          occurred_at: string;
          organization_id: string;
          subject: string | null;
        };
        /** Written by the database's triggers only: the API refuses every write. */
        Insert: {
          actor_id?: string | null;
          actor_name?: string | null;
          details?: JsonObject;
          document_id?: string | null;
          id: number;
          kind: string;
          occurred_at?: string;
          organization_id: string;
          subject?: string | null;
        };
        Update: {
          actor_id?: string | null;
          actor_name?: string | null;
          details?: JsonObject;
          document_id?: string | null;
          id?: number;
          kind?: string;
          occurred_at?: string;
          organization_id?: string;
          subject?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: 'activity_log_actor_id_fkey';
            columns: ['actor_id'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'activity_log_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      calendar_feeds: {
        Row: {
          created_at: string;
          id: string;
          last_fetched_at: string | null;
          organization_id: string;
          scope: CalendarFeedScope;
          user_id: string;
        };
        Insert: {
          created_at?: string;
          id?: string;
          last_fetched_at?: string | null;
          organization_id: string;
          scope: CalendarFeedScope;
          user_id: string;
        };
        Update: {
          created_at?: string;
          id?: string;
          last_fetched_at?: string | null;
          organization_id?: string;
          scope?: CalendarFeedScope;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'calendar_feeds_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'calendar_feeds_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: true;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
        ];
      };
      corporate_status: {
        Row: {
          annual_report_status: AnnualReportStatus | null;
          entity_name: string | null;
          entity_type: CorporateEntityType | null;
          filing_date: string | null;
          last_updated: string;
          next_due_date: string | null;
          organization_id: string;
          status: CorporateStatusValue | null;
        };
        Insert: {
          annual_report_status?: AnnualReportStatus | null;
          entity_name?: string | null;
          entity_type?: CorporateEntityType | null;
          filing_date?: string | null;
          last_updated?: string;
          next_due_date?: string | null;
          organization_id: string;
          status?: CorporateStatusValue | null;
        };
        Update: {
          annual_report_status?: AnnualReportStatus | null;
          entity_name?: string | null;
          entity_type?: CorporateEntityType | null;
          filing_date?: string | null;
          last_updated?: string;
          next_due_date?: string | null;
          organization_id?: string;
          status?: CorporateStatusValue | null;
        };
        Relationships: [
          {
            foreignKeyName: 'corporate_status_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: true;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      custom_integrations: {
        Row: {
          category: IntegrationCategory;
          created_at: string;
          description: string;
          id: string;
          name: string;
          note: string | null;
          operations_category: OperationsCategoryKey;
          organization_id: string;
          supports_oauth: boolean;
          tags: string[];
          updated_at: string;
          url: string;
        };
        Insert: {
          category?: IntegrationCategory;
          created_at?: string;
          description?: string;
          id?: string;
          name?: string;
          note?: string | null;
          operations_category: OperationsCategoryKey;
          organization_id: string;
          supports_oauth?: boolean;
          tags?: string[];
          updated_at?: string;
          url?: string;
        };
        Update: {
          category?: IntegrationCategory;
          created_at?: string;
          description?: string;
          id?: string;
          name?: string;
          note?: string | null;
          operations_category?: OperationsCategoryKey;
          organization_id?: string;
          supports_oauth?: boolean;
          tags?: string[];
          updated_at?: string;
          url?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'custom_integrations_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      document_texts: {
        Row: {
          content: string;
          document_id: string;
          extracted_at: string | null;
          object_version: string | null;
          organization_id: string;
          pages: number | null;
          reason: string | null;
          search_vector: string;
          state: DocumentTextState;
          truncated: boolean;
          updated_at: string;
        };
        Insert: {
          content?: string;
          document_id: string;
          extracted_at?: string | null;
          object_version?: string | null;
          organization_id: string;
          pages?: number | null;
          reason?: string | null;
          search_vector?: string;
          state?: DocumentTextState;
          truncated?: boolean;
          updated_at?: string;
        };
        Update: {
          content?: string;
          document_id?: string;
          extracted_at?: string | null;
          object_version?: string | null;
          organization_id?: string;
          pages?: number | null;
          reason?: string | null;
          search_vector?: string;
          state?: DocumentTextState;
          truncated?: boolean;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'document_texts_document_id_fkey';
            columns: ['document_id'];
            isOneToOne: true;
            referencedRelation: 'documents';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'document_texts_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      document_versions: {
        Row: {
          change: DocumentVersionChange;
          content_sha256: string | null;
          document_id: string;
          expiry_date: string | null;
          file_path: string;
          id: string;
          name: string;
          organization_id: string;
          properties: JsonObject;
          replaced_at: string;
          replaced_by: string | null;
          size: number;
          uploaded_at: string;
          uploaded_by: string | null;
          version_number: number;
        };
        Insert: {
          change: DocumentVersionChange;
          content_sha256?: string | null;
          document_id: string;
          expiry_date?: string | null;
          file_path: string;
          id?: string;
          name: string;
          organization_id: string;
          properties?: JsonObject;
          replaced_at?: string;
          replaced_by?: string | null;
          size: number;
          uploaded_at: string;
          uploaded_by?: string | null;
          version_number: number;
        };
        Update: {
          change?: DocumentVersionChange;
          content_sha256?: string | null;
          document_id?: string;
          expiry_date?: string | null;
          file_path?: string;
          id?: string;
          name?: string;
          organization_id?: string;
          properties?: JsonObject;
          replaced_at?: string;
          replaced_by?: string | null;
          size?: number;
          uploaded_at?: string;
          uploaded_by?: string | null;
          version_number?: number;
        };
        Relationships: [
          {
            foreignKeyName: 'document_versions_document_id_fkey';
            columns: ['document_id'];
            isOneToOne: false;
            referencedRelation: 'documents';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'document_versions_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'document_versions_replaced_by_fkey';
            columns: ['replaced_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'document_versions_uploaded_by_fkey';
            columns: ['uploaded_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
        ];
      };
      documents: {
        Row: {
          category: DocumentCategory;
          content_sha256: string | null;
          created_at: string;
          deleted_at: string | null;
          deleted_by: string | null;
          description: string | null;
          expiry_date: string | null;
          file_path: string;
          id: string;
          name: string;
          organization_id: string;
          renewal_in_progress: boolean;
          renewal_note: string | null;
          responsible_id: string | null;
          size: number;
          status: DocumentStatus;
          tags: string[];
          updated_at: string;
          upload_date: string;
          uploaded_by: string | null;
        };
        Insert: {
          category: DocumentCategory;
          content_sha256?: string | null;
          created_at?: string;
          deleted_at?: string | null;
          deleted_by?: string | null;
          description?: string | null;
          expiry_date?: string | null;
          file_path: string;
          id?: string;
          name: string;
          organization_id: string;
          renewal_in_progress?: boolean;
          renewal_note?: string | null;
          responsible_id?: string | null;
          size?: number;
          status?: DocumentStatus;
          tags?: string[];
          updated_at?: string;
          upload_date?: string;
          uploaded_by?: string | null;
        };
        Update: {
          category?: DocumentCategory;
          content_sha256?: string | null;
          created_at?: string;
          deleted_at?: string | null;
          deleted_by?: string | null;
          description?: string | null;
          expiry_date?: string | null;
          file_path?: string;
          id?: string;
          name?: string;
          organization_id?: string;
          renewal_in_progress?: boolean;
          renewal_note?: string | null;
          responsible_id?: string | null;
          size?: number;
          status?: DocumentStatus;
          tags?: string[];
          updated_at?: string;
          upload_date?: string;
          uploaded_by?: string | null;
        };
        Relationships: [
          {
            foreignKeyName: 'documents_deleted_by_fkey';
            columns: ['deleted_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'documents_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'documents_responsible_id_fkey';
            columns: ['responsible_id'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'documents_uploaded_by_fkey';
            columns: ['uploaded_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
        ];
      };
      integration_contacts: {
        Row: {
          company: string | null;
          email: string | null;
          id: string;
          integration_key: string;
          name: string | null;
          notes: string | null;
          organization_id: string;
          phone: string | null;
          title: string | null;
          updated_at: string;
        };
        Insert: {
          company?: string | null;
          email?: string | null;
          id?: string;
          integration_key: string;
          name?: string | null;
          notes?: string | null;
          organization_id: string;
          phone?: string | null;
          title?: string | null;
          updated_at?: string;
        };
        Update: {
          company?: string | null;
          email?: string | null;
          id?: string;
          integration_key?: string;
          name?: string | null;
          notes?: string | null;
          organization_id?: string;
          phone?: string | null;
          title?: string | null;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'integration_contacts_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      integration_customizations: {
        Row: {
          category: IntegrationCategory;
          description: string;
          id: string;
          integration_key: string;
          name: string;
          note: string | null;
          organization_id: string;
          tags: string[];
          updated_at: string;
          url: string;
        };
        Insert: {
          category: IntegrationCategory;
          description: string;
          id?: string;
          integration_key: string;
          name: string;
          note?: string | null;
          organization_id: string;
          tags?: string[];
          updated_at?: string;
          url: string;
        };
        Update: {
          category?: IntegrationCategory;
          description?: string;
          id?: string;
          integration_key?: string;
          name?: string;
          note?: string | null;
          organization_id?: string;
          tags?: string[];
          updated_at?: string;
          url?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'integration_customizations_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      oauth_configs: {
        /** `client_secret` is not readable by the API roles: read `oauth_provider_settings`. */
        Row: {
          authorize_url: string | null;
          client_id: string;
          client_secret: string | null;
          created_at: string;
          has_client_secret: boolean | null;
          id: string;
          organization_id: string;
          provider_id: string;
          token_url: string | null;
          updated_at: string;
        };
        Insert: {
          authorize_url?: string | null;
          client_id: string;
          client_secret?: string | null;
          created_at?: string;
          has_client_secret?: never;
          id?: string;
          organization_id: string;
          provider_id: string;
          token_url?: string | null;
          updated_at?: string;
        };
        Update: {
          authorize_url?: string | null;
          client_id?: string;
          client_secret?: string | null;
          created_at?: string;
          has_client_secret?: never;
          id?: string;
          organization_id?: string;
          provider_id?: string;
          token_url?: string | null;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'oauth_configs_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      /** Service role only (the `oauth` edge function). */
      oauth_connection_tokens: {
        Row: {
          access_token: string;
          connection_id: string;
          refresh_token: string | null;
          refreshing_until: string | null;
          updated_at: string;
        };
        Insert: {
          access_token: string;
          connection_id: string;
          refresh_token?: string | null;
          refreshing_until?: string | null;
          updated_at?: string;
        };
        Update: {
          access_token?: string;
          connection_id?: string;
          refresh_token?: string | null;
          refreshing_until?: string | null;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'oauth_connection_tokens_connection_id_fkey';
            columns: ['connection_id'];
            isOneToOne: true;
            referencedRelation: 'oauth_connections';
            referencedColumns: ['id'];
          },
        ];
      };
      oauth_connections: {
        Row: {
          created_at: string;
          expires_at: string | null;
          id: string;
          is_active: boolean;
          needs_reconnect: boolean;
          organization_id: string;
          provider_id: string;
          scopes: string[];
          updated_at: string;
          user_id: string;
        };
        Insert: {
          created_at?: string;
          expires_at?: string | null;
          id?: string;
          is_active?: boolean;
          needs_reconnect?: boolean;
          organization_id: string;
          provider_id: string;
          scopes?: string[];
          updated_at?: string;
          user_id: string;
        };
        Update: {
          created_at?: string;
          expires_at?: string | null;
          id?: string;
          is_active?: boolean;
          needs_reconnect?: boolean;
          organization_id?: string;
          provider_id?: string;
          scopes?: string[];
          updated_at?: string;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'oauth_connections_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'oauth_connections_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
        ];
      };
      /** Service role only (the `oauth` edge function). */
      oauth_states: {
        Row: {
          created_at: string;
          expires_at: string;
          id: string;
          organization_id: string;
          provider_id: string;
          redirect_uri: string | null;
          state_hash: string;
          used_at: string | null;
          user_id: string;
        };
        Insert: {
          created_at?: string;
          expires_at: string;
          id?: string;
          organization_id: string;
          provider_id: string;
          redirect_uri?: string | null;
          state_hash: string;
          used_at?: string | null;
          user_id: string;
        };
        Update: {
          created_at?: string;
          expires_at?: string;
          id?: string;
          organization_id?: string;
          provider_id?: string;
          redirect_uri?: string | null;
          state_hash?: string;
          used_at?: string | null;
          user_id?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'oauth_states_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'oauth_states_user_id_fkey';
            columns: ['user_id'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
        ];
      };
      organization_exports: {
        Row: {
          created_at: string;
          document_count: number | null;
          error: string | null;
          expires_at: string | null;
          file_path: string | null;
          finished_at: string | null;
          id: string;
          include_versions: boolean;
          organization_id: string;
          progress: number;
          requested_by: string | null;
          size: number | null;
          status: ExportStatus;
        };
        /** Written by the rpc functions and the server's jobs only: the API refuses every write. */
        Insert: {
          created_at?: string;
          document_count?: number | null;
          error?: string | null;
          expires_at?: string | null;
          file_path?: string | null;
          finished_at?: string | null;
          id?: string;
          include_versions?: boolean;
          organization_id: string;
          progress?: number;
          requested_by?: string | null;
          size?: number | null;
          status?: ExportStatus;
        };
        Update: {
          created_at?: string;
          document_count?: number | null;
          error?: string | null;
          expires_at?: string | null;
          file_path?: string | null;
          finished_at?: string | null;
          id?: string;
          include_versions?: boolean;
          organization_id?: string;
          progress?: number;
          requested_by?: string | null;
          size?: number | null;
          status?: ExportStatus;
        };
        Relationships: [
          {
            foreignKeyName: 'organization_exports_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'organization_exports_requested_by_fkey';
            columns: ['requested_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
        ];
      };
      organization_imports: {
        Row: {
          created_at: string;
          document_count: number | null;
          error: string | null;
          file_path: string;
          finished_at: string | null;
          id: string;
          organization_id: string;
          requested_by: string | null;
          status: ImportStatus;
        };
        /** Written by the rpc functions and the server's jobs only: the API refuses every write. */
        Insert: {
          created_at?: string;
          document_count?: number | null;
          error?: string | null;
          file_path: string;
          finished_at?: string | null;
          id?: string;
          organization_id: string;
          requested_by?: string | null;
          status?: ImportStatus;
        };
        Update: {
          created_at?: string;
          document_count?: number | null;
          error?: string | null;
          file_path?: string;
          finished_at?: string | null;
          id?: string;
          organization_id?: string;
          requested_by?: string | null;
          status?: ImportStatus;
        };
        Relationships: [
          {
            foreignKeyName: 'organization_imports_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'organization_imports_requested_by_fkey';
            columns: ['requested_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
        ];
      };
      organizations: {
        Row: {
          created_at: string;
          created_by: string | null;
          id: string;
          name: string;
          require_two_factor_for_admins: boolean;
          updated_at: string;
        };
        Insert: {
          created_at?: string;
          created_by?: string | null;
          id?: string;
          name: string;
          require_two_factor_for_admins?: boolean;
          updated_at?: string;
        };
        Update: {
          created_at?: string;
          created_by?: string | null;
          id?: string;
          name?: string;
          require_two_factor_for_admins?: boolean;
          updated_at?: string;
        };
        Relationships: [];
      };
      outbox_messages: {
        Row: {
          attachments: JsonArray;
          attempts: number;
          content: JsonObject;
          created_at: string;
          created_by: string | null;
          dedupe_key: string | null;
          html_body: string | null;
          id: string;
          kind: OutboxMessageKind;
          last_error: string | null;
          links: JsonArray;
          organization_id: string;
          recipients: string[];
          sent_at: string | null;
          status: OutboxMessageStatus;
          subject: string;
          text_body: string | null;
          updated_at: string;
        };
        Insert: {
          attachments?: JsonArray;
          attempts?: number;
          content?: JsonObject;
          created_at?: string;
          created_by?: string | null;
          dedupe_key?: string | null;
          html_body?: string | null;
          id?: string;
          kind: OutboxMessageKind;
          last_error?: string | null;
          links?: JsonArray;
          organization_id: string;
          recipients: string[];
          sent_at?: string | null;
          status?: OutboxMessageStatus;
          subject: string;
          text_body?: string | null;
          updated_at?: string;
        };
        Update: {
          attachments?: JsonArray;
          attempts?: number;
          content?: JsonObject;
          created_at?: string;
          created_by?: string | null;
          dedupe_key?: string | null;
          html_body?: string | null;
          id?: string;
          kind?: OutboxMessageKind;
          last_error?: string | null;
          links?: JsonArray;
          organization_id?: string;
          recipients?: string[];
          sent_at?: string | null;
          status?: OutboxMessageStatus;
          subject?: string;
          text_body?: string | null;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'outbox_messages_created_by_fkey';
            columns: ['created_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'outbox_messages_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      reminder_settings: {
        Row: {
          days_before: number[];
          organization_id: string;
          recipients: ReminderRecipients;
          remind_overdue: boolean;
          send_hour: number;
          time_zone: string;
          updated_at: string;
        };
        Insert: {
          days_before?: number[];
          organization_id: string;
          recipients?: ReminderRecipients;
          remind_overdue?: boolean;
          send_hour?: number;
          time_zone?: string;
          updated_at?: string;
        };
        Update: {
          days_before?: number[];
          organization_id?: string;
          recipients?: ReminderRecipients;
          remind_overdue?: boolean;
          send_hour?: number;
          time_zone?: string;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'reminder_settings_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: true;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      user_invitations: {
        Row: {
          accepted_at: string | null;
          created_at: string;
          email: string;
          expires_at: string;
          full_name: string | null;
          id: string;
          invited_by: string | null;
          organization_id: string;
          role: InvitableRole;
        };
        Insert: {
          accepted_at?: string | null;
          created_at?: string;
          email: string;
          expires_at: string;
          full_name?: string | null;
          id?: string;
          invited_by?: string | null;
          organization_id: string;
          role?: InvitableRole;
        };
        Update: {
          accepted_at?: string | null;
          created_at?: string;
          email?: string;
          expires_at?: string;
          full_name?: string | null;
          id?: string;
          invited_by?: string | null;
          organization_id?: string;
          role?: InvitableRole;
        };
        Relationships: [
          {
            foreignKeyName: 'user_invitations_invited_by_fkey';
            columns: ['invited_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'user_invitations_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
      user_profiles: {
        Row: {
          created_at: string;
          email: string;
          email_reminders: boolean;
          full_name: string | null;
          id: string;
          invited_at: string | null;
          invited_by: string | null;
          is_active: boolean;
          last_login: string | null;
          organization_id: string | null;
          role: UserRole;
          updated_at: string;
        };
        Insert: {
          created_at?: string;
          email: string;
          email_reminders?: boolean;
          full_name?: string | null;
          id: string;
          invited_at?: string | null;
          invited_by?: string | null;
          is_active?: boolean;
          last_login?: string | null;
          organization_id?: string | null;
          role?: UserRole;
          updated_at?: string;
        };
        Update: {
          created_at?: string;
          email?: string;
          email_reminders?: boolean;
          full_name?: string | null;
          id?: string;
          invited_at?: string | null;
          invited_by?: string | null;
          is_active?: boolean;
          last_login?: string | null;
          organization_id?: string | null;
          role?: UserRole;
          updated_at?: string;
        };
        Relationships: [
          {
            foreignKeyName: 'user_profiles_invited_by_fkey';
            columns: ['invited_by'];
            isOneToOne: false;
            referencedRelation: 'user_profiles';
            referencedColumns: ['id'];
          },
          {
            foreignKeyName: 'user_profiles_organization_id_fkey';
            columns: ['organization_id'];
            isOneToOne: false;
            referencedRelation: 'organizations';
            referencedColumns: ['id'];
          },
        ];
      };
    };
    Views: {
      oauth_provider_settings: {
        Row: {
          authorize_url: string | null;
          client_id: string | null;
          has_client_secret: boolean | null;
          provider_id: string | null;
          token_url: string | null;
          updated_at: string | null;
        };
        Relationships: [];
      };
    };
    Functions: {
      add_documents_tags: {
        Args: { document_ids: string[]; tags_to_add: string[] };
        Returns: number;
      };
      accept_invitation: {
        Args: { token: string };
        Returns: undefined;
      };
      /** Service role only (the `calendar` edge function); null for an unknown token. */
      calendar_feed: {
        Args: { token: string };
        Returns: Json;
      };
      cancel_invitation: {
        Args: { invitation_id: string };
        Returns: undefined;
      };
      count_documents_matching: {
        Args: { term: string };
        Returns: number;
      };
      create_calendar_feed: {
        Args: { scope: CalendarFeedScope };
        Returns: Database['public']['CompositeTypes']['calendar_feed_result'];
      };
      create_organization: {
        Args: { name: string };
        Returns: Database['public']['Tables']['organizations']['Row'];
      };
      deactivate_user: {
        Args: { user_id: string };
        Returns: undefined;
      };
      /** Moves the documents to the trash; returns how many. */
      delete_documents: {
        Args: { document_ids: string[] };
        Returns: number;
      };
      disconnect_oauth_connection: {
        Args: { connection_id: string };
        Returns: undefined;
      };
      document_stats: {
        Args: never;
        Returns: Database['public']['CompositeTypes']['document_stats_result'];
      };
      empty_trash: {
        Args: never;
        Returns: number;
      };
      find_duplicate_documents: {
        Args: { sha256: string };
        Returns: Database['public']['Tables']['documents']['Row'][];
      };
      get_invitation: {
        Args: { token: string };
        Returns: Database['public']['CompositeTypes']['invitation_details'];
      };
      invite_user: {
        Args: { email: string; role: InvitableRole; full_name: string | null };
        Returns: Database['public']['CompositeTypes']['invite_user_result'];
      };
      invite_user_by_email: {
        Args: { email: string; role: InvitableRole; full_name: string | null };
        Returns: Database['public']['CompositeTypes']['invite_by_email_result'];
      };
      list_trash: {
        Args: never;
        Returns: Database['public']['CompositeTypes']['trash_entry'][];
      };
      start_organization_export: {
        Args: { include_versions?: boolean };
        Returns: Database['public']['Tables']['organization_exports']['Row'];
      };
      start_organization_import: {
        Args: { file_path: string };
        Returns: Database['public']['Tables']['organization_imports']['Row'];
      };
      organization_storage_usage: {
        Args: never;
        Returns: Database['public']['CompositeTypes']['storage_usage_result'];
      };
      purge_documents: {
        Args: { document_ids: string[] };
        Returns: number;
      };
      reactivate_user: {
        Args: { user_id: string };
        Returns: undefined;
      };
      renew_document: {
        Args: { document_id: string; file_path: string; expiry_date: string };
        Returns: Database['public']['Tables']['documents']['Row'];
      };
      restore_documents: {
        Args: { document_ids: string[] };
        Returns: number;
      };
      replace_document_file: {
        Args: {
          document_id: string;
          file_path: string;
          change?: 'content_edit' | 'file_replacement';
        };
        Returns: Database['public']['Tables']['documents']['Row'];
      };
      restore_document_version: {
        Args: { version_id: string; file_path: string };
        Returns: Database['public']['Tables']['documents']['Row'];
      };
      revoke_calendar_feed: {
        Args: never;
        Returns: undefined;
      };
      retry_outbox_message: {
        Args: { message_id: string };
        Returns: Database['public']['CompositeTypes']['mail_result'];
      };
      remove_documents_tags: {
        Args: { document_ids: string[]; tags_to_remove: string[] };
        Returns: number;
      };
      save_oauth_config: {
        Args: {
          provider_id: string;
          client_id: string;
          client_secret: string | null;
          authorize_url: string | null;
          token_url: string | null;
        };
        Returns: undefined;
      };
      send_documents_email: {
        Args: {
          recipients: string[];
          subject: string;
          message: string | null;
          document_ids: string[];
          as_links: boolean;
        };
        Returns: Database['public']['CompositeTypes']['mail_result'];
      };
      members_with_two_factor: {
        Args: never;
        Returns: string[];
      };
      // The mail-worker edge function's (service role only).
      mail_worker_due_reminder_runs: {
        Args: { now_at?: string };
        Returns: { organization_id: string | null; local_date: string | null }[];
      };
      mail_worker_run_reminders: {
        Args: { organization_id: string; local_date: string };
        Returns: number;
      };
      mail_worker_claim: {
        Args: { runner: string; lease_seconds: number; now_at?: string };
        // The claimed job and its message, or null when none is due.
        Returns: Json;
      };
      mail_worker_record: {
        Args: {
          job_id: number;
          runner: string;
          outcome: string;
          error?: string;
          text_body?: string;
          html_body?: string;
          links?: Json;
          retry_seconds?: number;
          now_at?: string;
        };
        Returns: boolean;
      };
      remove_member_two_factor: {
        Args: { user_id: string };
        Returns: number;
      };
      set_two_factor_requirement: {
        Args: { required: boolean };
        Returns: undefined;
      };
      two_factor_status: {
        Args: never;
        Returns: Json;
      };
      send_password_reset: {
        Args: { user_id: string };
        Returns: string;
      };
      search_documents: {
        Args: {
          search?: string | null;
          category_filter?: string | null;
          tag_filter?: string | null;
          expiry_filter?: 'overdue' | 'soon' | 'later' | 'none' | null;
          uploaded_by_filter?: string | null;
          section_category?: string | null;
          section_tags?: string[] | null;
          sort_by?:
            | 'relevance'
            | 'name'
            | 'category'
            | 'upload_date'
            | 'expiry_date'
            | 'size'
            | 'status'
            | null;
          sort_descending?: boolean | null;
          page_offset?: number;
          page_size?: number;
          count_limit?: number;
        };
        Returns: Database['public']['CompositeTypes']['document_search_result'][];
      };
      set_documents_category: {
        Args: { document_ids: string[]; new_category: DocumentCategory };
        Returns: number;
      };
      set_documents_expiry: {
        Args: { document_ids: string[]; new_expiry_date: string | null };
        Returns: number;
      };
      update_user_role: {
        Args: { user_id: string; new_role: InvitableRole };
        Returns: undefined;
      };
    };
    Enums: {
      [_ in never]: never;
    };
    CompositeTypes: {
      calendar_feed_result: {
        id: string | null;
        scope: string | null;
        token: string | null;
        created_at: string | null;
      };
      document_search_result: {
        id: string | null;
        organization_id: string | null;
        name: string | null;
        category: DocumentCategory | null;
        expiry_date: string | null;
        size: number | null;
        status: DocumentStatus | null;
        file_path: string | null;
        tags: string[] | null;
        description: string | null;
        uploaded_by: string | null;
        uploader_name: string | null;
        created_at: string | null;
        upload_date: string | null;
        updated_at: string | null;
        text_state: DocumentTextState | null;
        text_reason: string | null;
        snippet: string | null;
        rank: number | null;
        total_count: number | null;
        responsible_id: string | null;
        responsible_name: string | null;
        renewal_in_progress: boolean | null;
        renewal_note: string | null;
        total_capped: boolean | null;
      };
      document_stats_result: {
        total: number | null;
        expiring_soon: number | null;
        overdue: number | null;
        categories: number | null;
      };
      trash_entry: {
        id: string | null;
        name: string | null;
        category: DocumentCategory | null;
        size: number | null;
        file_path: string | null;
        deleted_at: string | null;
        deleted_by: string | null;
        deleted_by_name: string | null;
        purge_at: string | null;
      };
      invitation_details: {
        email: string | null;
        role: InvitableRole | null;
        full_name: string | null;
        organization_name: string | null;
        invited_by_name: string | null;
        invited_by_email: string | null;
        expires_at: string | null;
      };
      invite_by_email_result: {
        id: string | null;
        email: string | null;
        token: string | null;
        mail_id: string | null;
        mail_status: string | null;
      };
      invite_user_result: {
        id: string | null;
        email: string | null;
        token: string | null;
      };
      mail_result: {
        id: string | null;
        status: string | null;
      };
      storage_usage_result: {
        used_bytes: number | null;
        quota_bytes: number | null;
        documents_bytes: number | null;
        versions_bytes: number | null;
        trash_bytes: number | null;
        imports_bytes: number | null;
        uploads_bytes: number | null;
        other_bytes: number | null;
        export_bytes: number | null;
      };
    };
  };
};

// ---------------------------------------------------------------------------------------------
// Helpers, as `supabase gen types` exports them (for the one schema, `public`)
// ---------------------------------------------------------------------------------------------

type PublicSchema = Database['public'];
type TablesAndViews = PublicSchema['Tables'] & PublicSchema['Views'];

/** The row of a table or view: `Tables<'documents'>`. */
export type Tables<Name extends keyof TablesAndViews> = TablesAndViews[Name]['Row'];
/** What an insert into a table accepts: `TablesInsert<'documents'>`. */
export type TablesInsert<Name extends keyof PublicSchema['Tables']> =
  PublicSchema['Tables'][Name]['Insert'];
/** What an update of a table accepts: `TablesUpdate<'documents'>`. */
export type TablesUpdate<Name extends keyof PublicSchema['Tables']> =
  PublicSchema['Tables'][Name]['Update'];
export type Enums<Name extends keyof PublicSchema['Enums']> = PublicSchema['Enums'][Name];
export type CompositeTypes<Name extends keyof PublicSchema['CompositeTypes']> =
  PublicSchema['CompositeTypes'][Name];
/** The arguments of an rpc function: `FunctionArgs<'invite_user'>`. */
export type FunctionArgs<Name extends keyof PublicSchema['Functions']> =
  PublicSchema['Functions'][Name]['Args'];
/** What an rpc function returns: `FunctionReturns<'document_stats'>`. */
export type FunctionReturns<Name extends keyof PublicSchema['Functions']> =
  PublicSchema['Functions'][Name]['Returns'];

export const Constants = {
  public: {
    Enums: {},
  },
} as const;
