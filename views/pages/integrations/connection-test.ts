import { messageOf } from '@shared/api-error.js';
import { toast } from '@views/components/ui/toast.js';
import { apiRequest } from '@views/data/http.js';

/** Runs a connection test and raises the spec's toast; resolves to the answer when it succeeded. */
export async function runConnectionTest<T extends { success: boolean; message: string }>(url: string): Promise<T | null> {
  try {
    const result = await apiRequest<T>('GET', url);
    if (result.success) {
      toast({ title: 'Connection Successful', description: result.message });
      return result;
    }
    toast({ title: 'Connection Failed', description: result.message || 'Connection test failed', variant: 'destructive' });
  } catch (error) {
    toast({ title: 'Connection Failed', description: messageOf(error, 'Connection test failed'), variant: 'destructive' });
  }
  return null;
}
