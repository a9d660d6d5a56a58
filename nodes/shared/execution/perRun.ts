/**
 * State that lives as long as one run of the node: n8n gives each execution of a node (and each poll of
 * the trigger) its own context object, so state keyed by that object is shared by the run's items and
 * released with it.
 *
 * `perRun(init)` returns the getter: the first call for a context creates the state with `init`, later
 * calls return the same object.
 */
export function perRun<C extends object, S>(init: () => S): (ctx: C) => S {
	const states = new WeakMap<C, S>();
	return (ctx) => {
		let state = states.get(ctx);
		if (state === undefined) {
			state = init();
			states.set(ctx, state);
		}
		return state;
	};
}
