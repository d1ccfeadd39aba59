import { describeWidget } from './support/widget-suite.js';

describeWidget('v3');
