// @ts-nocheck
import { startOnFreshPorts } from '../../scripts/n8n/processes';

const clash = () => new Error("n8n exited before it was ready. Last output:\nn8n Task Broker's port 34351 is already in use.");

describe('startOnFreshPorts', () => {
	test('a port taken between the pick and the bind: new ports are picked and the process starts again', async () => {
		const attempts: number[] = [];
		let port = 34351;
		const started = await startOnFreshPorts(
			async () => {
				attempts.push(port);
				if (attempts.length === 1) throw clash();
				return port;
			},
			async () => {
				port += 1;
			},
		);
		expect(attempts).toEqual([34351, 34352]);
		expect(started).toBe(34352);
	});

	test('three clashes in a row: the third failure is thrown', async () => {
		let starts = 0;
		await expect(
			startOnFreshPorts(
				async () => {
					starts++;
					throw clash();
				},
				async () => undefined,
			),
		).rejects.toThrow('already in use');
		expect(starts).toBe(3);
	});

	test('any other failure is thrown at once, with no new ports', async () => {
		let repicks = 0;
		await expect(
			startOnFreshPorts(
				async () => {
					throw new Error('n8n exited before it was ready. Last output:\nThere was an error initializing DB');
				},
				async () => {
					repicks++;
				},
			),
		).rejects.toThrow('initializing DB');
		expect(repicks).toBe(0);
	});
});
