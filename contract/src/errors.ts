/** The one shape of every error the API sends. */
export interface ApiErrorBody {
  message: string;
  code?: string;
  details?: Record<string, string[]>;
}
