/**
 * `/model NAME`: the conversation's model, switchable between turns. Each switch makes a new
 * client for the same provider and endpoint; a request in flight keeps the client it started with.
 */
import type { ModelClient, ModelReply, ModelRequest } from "../../core/ports/model.js";

export class SwitchableModel implements ModelClient {
  readonly #make: (name: string) => ModelClient;
  #name: string;
  #client: ModelClient;
  readonly #listeners: ((name: string) => void)[] = [];

  constructor(name: string, make: (name: string) => ModelClient) {
    this.#make = make;
    this.#name = name;
    this.#client = make(name);
  }

  get current(): string {
    return this.#name;
  }

  switchTo(name: string): void {
    this.#client = this.#make(name);
    this.#name = name;
    for (const listener of this.#listeners) listener(name);
  }

  /** What else follows the model (its context window): told of each switch, after it. */
  whenSwitched(listener: (name: string) => void): void {
    this.#listeners.push(listener);
  }

  complete(request: ModelRequest): Promise<ModelReply> {
    return this.#client.complete(request);
  }
}
