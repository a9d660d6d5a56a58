/**
 * One input item as an operation runs it. The item loop (nodes/FileTransferManager/actions/itemRun.ts) makes
 * one per item and hands it to the operation's `execute`; the operation passes it on to the helpers that send
 * requests for the item. It lives beneath the transport and the helpers so that both may name it without
 * reaching up into the action node's actions/.
 */
export interface ItemContext {
	/** The item's place in the node's input (0-based), named in errors. */
	readonly index: number;
	/**
	 * Aborted when the item is stopped because an earlier item failed (without Continue On Fail): nothing
	 * more may be sent for it. Every request of the item carries it (the transport's `stop`), and its waits
	 * end on it.
	 */
	readonly stop: AbortSignal;
	/**
	 * Gives the item's place among the items at work to the next item, for an item that from now on only
	 * waits (Wait for Completion), so that the waits of many items overlap. Calling it again does nothing.
	 */
	releaseSlot(): void;
}
