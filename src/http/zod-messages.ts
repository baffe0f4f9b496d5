// the schemas of the HTTP layer and the areas take `z` with the messages of src/zod-messages.ts
export { z } from '../zod-messages.js'
