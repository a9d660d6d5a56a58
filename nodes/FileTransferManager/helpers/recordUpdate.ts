/**
 * The update of a record (Group › Update, User › Update): at least one field, the JSON:API body, a PATCH that
 * is safe to repeat, and the record flattened as the operation's item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Route } from '../../shared/api/routes';
import type { AnyResource, ResourceType, UpdateBody } from '../../shared/api/types';
import type { ItemContext } from '../../shared/execution/item';
import { requestResource } from '../../shared/answers/checkedRequests';
import { asItems, flatten } from '../../shared/answers/output';
import { invalidInput } from '../../shared/input/validate';

export interface RecordUpdate<T extends ResourceType, A extends object> {
	type: T;
	id: string;
	route: Route;
	/** The attributes read and checked from the Update Fields collection: only the fields the user added. */
	attributes: A;
	/** The Update Fields collection: its options name the fields an empty update is told to add. */
	updateFields: INodeProperties;
}

/** `the field to change (Name)`, or `a field to change (First Name, Last Name or Time Zone)`. */
function fieldsToAdd(collection: INodeProperties): string {
	const labels = (collection.options ?? []).map((option) => ('displayName' in option ? option.displayName : option.name));
	if (labels.length === 1) return `the field to change (${labels[0]})`;
	return `a field to change (${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]})`;
}

/** Refuses an update without fields (nothing is sent), else sends the PATCH and outputs the updated record. */
export async function updateRecord<T extends ResourceType, A extends object>(
	ctx: IExecuteFunctions,
	item: ItemContext,
	update: RecordUpdate<T, A>,
): Promise<INodeExecutionData[]> {
	const { type, id, route, attributes } = update;
	if (Object.keys(attributes).length === 0) {
		throw invalidInput(
			ctx,
			item.index,
			'"Update Fields"',
			`is empty: add ${fieldsToAdd(update.updateFields)}`,
			'An update needs at least one field; nothing was sent.',
		);
	}
	const body: UpdateBody<T, A> = { data: { id, type, attributes } };
	// The PATCH sets absolute values, so repeating it after an ambiguous failure is harmless.
	const record = await requestResource<AnyResource>(ctx, route, type, {
		body: body as unknown as IDataObject,
		item,
		idempotent: true,
	});
	return asItems([flatten(record)]);
}
